/** Database fingerprints per table (row count, md5 of rows), to prove a rejected request wrote nothing. */
import type { Database } from "@/db/client";

export type Snapshot = Record<string, string>;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Counters, not data: a rejected request may count there by design (a wrong password still spends an attempt). */
const NOT_DATA = new Set(["rate_limits"]);

async function tables(database: Database): Promise<string[]> {
  const rows = await database.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  return rows.map((r) => r.table_name).filter((name) => !NOT_DATA.has(name));
}

function fingerprintQuery(table: string, where: string): string {
  return `SELECT ${literal(table)} AS name, count(*)::int || ':' || coalesce(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '') AS fingerprint FROM ${quote(table)} t ${where}`;
}

async function fingerprints(database: Database, parts: string[], params: unknown[] = []): Promise<Snapshot> {
  const rows = await database.query<{ name: string; fingerprint: string }>(parts.join("\nUNION ALL\n"), params);
  return Object.fromEntries(rows.map((row) => [row.name, row.fingerprint]));
}

/** Looked up once: the schema does not change while tests run. */
const tablesOf = new WeakMap<Database, Promise<string[]>>();
const ownedTablesOf = new WeakMap<Database, Promise<string[]>>();

function cached(map: WeakMap<Database, Promise<string[]>>, database: Database, load: () => Promise<string[]>) {
  let found = map.get(database);
  if (!found) {
    found = load();
    map.set(database, found);
  }
  return found;
}

export async function snapshot(database: Database): Promise<Snapshot> {
  const names = await cached(tablesOf, database, () => tables(database));
  return fingerprints(
    database,
    names.map((table) => fingerprintQuery(table, "")),
  );
}

export async function ownedSnapshot(database: Database, userId: string): Promise<Snapshot> {
  const owned = await cached(ownedTablesOf, database, async () =>
    (
      await database.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'user_id' ORDER BY table_name",
      )
    ).map((row) => row.table_name),
  );
  return fingerprints(
    database,
    [
      fingerprintQuery("users", "WHERE t.id = $1"),
      ...owned.map((table) => fingerprintQuery(table, "WHERE t.user_id = $1")),
    ],
    [userId],
  );
}
