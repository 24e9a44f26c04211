/**
 * Fingerprints of the database, to prove a rejected request wrote nothing: per table, the row
 * count and an md5 over every row's text. Tables are discovered from the catalog, so tables added
 * later are covered without changes here.
 */
import type { Database } from "@/db/client";

export type Snapshot = Record<string, string>;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Not compared: `rate_limits` holds counters, not data (db/schema.ts). A rejected request may count
 * there by design — a wrong current password or a taken email still spends an attempt.
 */
const NOT_DATA = new Set(["rate_limits"]);

async function tables(database: Database): Promise<string[]> {
  const rows = await database.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  return rows.map((r) => r.table_name).filter((name) => !NOT_DATA.has(name));
}

async function fingerprint(database: Database, table: string, where = "", params: unknown[] = []): Promise<string> {
  const [row] = await database.query<{ n: number; h: string }>(
    `SELECT count(*)::int AS n, coalesce(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '') AS h FROM ${quote(table)} t ${where}`,
    params,
  );
  return `${row?.n}:${row?.h}`;
}

/** Every table of the database. */
export async function snapshot(database: Database): Promise<Snapshot> {
  const result: Snapshot = {};
  for (const table of await tables(database)) result[table] = await fingerprint(database, table);
  return result;
}

/** Only `userId`'s data: their users row and their rows of every table with a user_id column. */
export async function ownedSnapshot(database: Database, userId: string): Promise<Snapshot> {
  const owned = await database.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'user_id' ORDER BY table_name",
  );
  const result: Snapshot = { users: await fingerprint(database, "users", "WHERE t.id = $1", [userId]) };
  for (const { table_name } of owned) {
    result[table_name] = await fingerprint(database, table_name, "WHERE t.user_id = $1", [userId]);
  }
  return result;
}
