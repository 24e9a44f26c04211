/**
 * A test database migrated up to (not including) one migration, with a way to apply the rest: for
 * tests of a migration's backfill, which store rows the way the schema before it did.
 */
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { type Database, type Db, type DbKind, MIGRATIONS_FOLDER, selectRows } from "@/db/client";
import { createPostgresTestDatabaseUrl } from "@/tests/db";

export interface PartlyMigrated {
  database: Database;
  migrateRest(): Promise<void>;
  close(): Promise<void>;
}

export async function migratedUntil(kind: DbKind, prefix: string): Promise<PartlyMigrated> {
  const before = await mkdtemp(path.join(tmpdir(), "lifeline-migrations-"));
  await cp(MIGRATIONS_FOLDER, before, { recursive: true });
  const journalPath = path.join(before, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag.startsWith(prefix));
  if (index < 1) throw new Error(`migration ${prefix} not found`);
  await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
  const opened = await openUnmigrated(kind);
  await opened.migrateFrom(before);
  return { database: opened.database, migrateRest: () => opened.migrateFrom(MIGRATIONS_FOLDER), close: opened.close };
}

async function openUnmigrated(kind: DbKind) {
  if (kind === "pglite") {
    const [{ PGlite }, { vector }, { drizzle }, { migrate }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("@electric-sql/pglite-pgvector"),
      import("drizzle-orm/pglite"),
      import("drizzle-orm/pglite/migrator"),
    ]);
    const client = await PGlite.create({ extensions: { vector } });
    const database = { db: drizzle(client), kind, query: async () => [] } as unknown as Database;
    return {
      database,
      migrateFrom: async (folder: string) => migrate(drizzle(client), { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const [{ Pool }, { drizzle }, { migrate }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
    import("drizzle-orm/node-postgres/migrator"),
  ]);
  const { url, drop } = await createPostgresTestDatabaseUrl();
  const pool = new Pool({ connectionString: url, max: 2 });
  // pool.end() can resolve while a client's Terminate is still in flight; the DROP … WITH (FORCE)
  // that follows then ends that backend, and pg reports it as an error on the closing client.
  let closing = false;
  pool.on("error", (error) => {
    if (!closing) throw error;
  });
  const database = { db: drizzle(pool), kind } as unknown as Database;
  return {
    database,
    migrateFrom: async (folder: string) => migrate(drizzle(pool), { migrationsFolder: folder }),
    close: async () => {
      closing = true;
      await pool.end();
      await drop();
    },
  };
}

/** Names only the columns every schema has had: drizzle's insert names every column of today's. */
export async function insertLegacyMemories(
  db: Db,
  rows: readonly { userId: string; content: string; embedding: readonly number[]; embeddingModel: string }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const [inserted] = await selectRows<{ id: string }>(
      db,
      sql`INSERT INTO memories (user_id, content, embedding, embedding_model, provenance)
          VALUES (${row.userId}, ${row.content}, ${JSON.stringify(row.embedding)}, ${row.embeddingModel}, 'user_created')
          RETURNING id`,
    );
    if (!inserted) throw new Error("no memory inserted");
    ids.push(inserted.id);
  }
  return ids;
}
