/**
 * Test databases: each call gives a fresh, migrated database of the requested kind.
 * - pglite: in memory, gone on close.
 * - postgres: a new database on the server at TEST_DATABASE_URL, dropped on close.
 */
import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { type Database, type DbKind, openDatabase } from "@/db/client";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export const DB_KINDS: DbKind[] = ["pglite", "postgres"];

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Cannot reach the test Postgres at ${TEST_DATABASE_URL} (set TEST_DATABASE_URL; npm test starts the local one): ${String(error)}`,
    );
  }
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the test Postgres server, for processes that open it by URL; `drop` removes it. */
export async function createPostgresTestDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lifeline_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function createTestDatabase(kind: DbKind): Promise<Database> {
  if (kind === "pglite") return openDatabase({ kind: "pglite", migrate: true });

  const { url, drop } = await createPostgresTestDatabaseUrl();
  const database = await openDatabase({ kind: "postgres", url, migrate: true, max: 4 });
  return {
    ...database,
    async close() {
      await database.close();
      await drop();
    },
  };
}
