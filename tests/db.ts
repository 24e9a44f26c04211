/**
 * Each call copies a template migrated once per run: an empty PGlite costs ~4 s of CPU, one loaded from the dump
 * ~1.5 s. Postgres test databases run without JIT (1–4 s of LLVM compiling on small data) and with asynchronous
 * commits; neither changes what a query returns.
 */
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "pg";
import { inject } from "vitest";
import { type Database, type DbKind, MIGRATIONS_FOLDER, openDatabase } from "@/db/client";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export const DB_KINDS: DbKind[] = ["pglite", "postgres"];

/** scripts/ensure-test-deps.sh starts it. */
export const TEST_PGBOUNCER_URL = process.env.TEST_PGBOUNCER_URL ?? "postgres://postgres@127.0.0.1:6433/test";

/** "pgbouncer": reached only through the pooler, as a deployment on a pooled URL is (its migrations too). */
export type TestDatabaseTarget = DbKind | "pgbouncer";

export function throughPgbouncer(url: string): string {
  const pooled = new URL(url);
  pooled.host = new URL(TEST_PGBOUNCER_URL).host;
  return pooled.toString();
}

export interface TestTemplates {
  dir: string;
  postgres: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    testTemplates: TestTemplates | undefined;
  }
}

/** The global teardown drops the Postgres template when this marker exists. */
export const POSTGRES_TEMPLATE_MARKER = "postgres-template";

function runTemplates(): TestTemplates | undefined {
  try {
    return inject("testTemplates");
  } catch {
    return undefined; // not in a vitest worker: no templates, every database is migrated from empty
  }
}

async function adminClient(): Promise<Client> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Cannot reach the test Postgres at ${TEST_DATABASE_URL} (set TEST_DATABASE_URL; npm test starts the local one): ${String(error)}`,
    );
  }
  return client;
}

async function adminQueries(...statements: string[]): Promise<void> {
  const client = await adminClient();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const settings = (name: string) => [
  `ALTER DATABASE ${name} SET jit = off`,
  `ALTER DATABASE ${name} SET synchronous_commit = off`,
];

async function newPostgresDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lifeline_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminQueries(
    template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`,
    ...settings(name),
  );
  return { url: databaseUrl(name), drop: () => adminQueries(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function runPostgresTemplate(): Promise<string | undefined> {
  const templates = runTemplates();
  return templates ? postgresTemplateOf(templates) : undefined;
}

/** For processes that open it by URL; `migrated` copies the run's template when there is one. */
export async function createPostgresTestDatabaseUrl(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  if (!options.migrated) return newPostgresDatabase();
  const created = await newPostgresDatabase(await runPostgresTemplate());
  try {
    await (await openDatabase({ kind: "postgres", url: created.url, migrate: true, max: 1 })).close();
  } catch (error) {
    await created.drop();
    throw error;
  }
  return created;
}

export async function dropPostgresTemplate(name: string): Promise<void> {
  await adminQueries(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** Arbitrary; held on the admin database while one process of the run makes the template. */
const TEMPLATE_LOCK = "7811887614447414886";

let postgresTemplate: Promise<string> | undefined;

function postgresTemplateOf(templates: TestTemplates): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = templates.postgres;
    const client = await adminClient();
    try {
      await client.query("SELECT pg_advisory_lock($1::bigint)", [TEMPLATE_LOCK]);
      const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (!rowCount) {
        await writeFile(path.join(templates.dir, POSTGRES_TEMPLATE_MARKER), name);
        await client.query(`CREATE DATABASE ${name}`);
        // A database being copied must have no connection.
        const template = await openDatabase({ kind: "postgres", url: databaseUrl(name), migrate: true, max: 1 });
        await template.close();
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock($1::bigint)", [TEMPLATE_LOCK]).catch(() => {});
      await client.end();
    }
    return name;
  })();
  postgresTemplate.catch(() => {
    postgresTemplate = undefined;
  });
  return postgresTemplate;
}

/** Written by tests/global-setup.ts before any worker starts. */
export const PGLITE_TEMPLATE_FILE = "pglite.tar";

/** The same extensions as db/client.ts; a mismatch fails the migration check. */
export async function migratedPgliteDump(): Promise<Uint8Array> {
  const [{ PGlite }, { vector }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-pgvector"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const client = await PGlite.create({ extensions: { vector } });
  try {
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    return new Uint8Array(await (await client.dumpDataDir("none")).arrayBuffer());
  } finally {
    await client.close();
  }
}

let pgliteTemplate: Promise<Blob> | undefined;

function pgliteTemplateOf(templates: TestTemplates): Promise<Blob> {
  pgliteTemplate ??= readFile(path.join(templates.dir, PGLITE_TEMPLATE_FILE)).then(
    (bytes) => new Blob([bytes as Uint8Array<ArrayBuffer>]),
  );
  pgliteTemplate.catch(() => {
    pgliteTemplate = undefined;
  });
  return pgliteTemplate;
}

/** On disk, for processes that open it by LIFELINE_DATA_DIR; PGlite's initdb costs ~6 s of CPU, so a template copy. */
export async function createPgliteTestDataDir(dataDir: string): Promise<Database> {
  const templates = runTemplates();
  const loadDataDir = templates ? await pgliteTemplateOf(templates) : undefined;
  return openDatabase({ kind: "pglite", dataDir, migrate: true, loadDataDir });
}

export async function createTestDatabase(kind: TestDatabaseTarget): Promise<Database> {
  if (kind === "pglite") {
    const templates = runTemplates();
    const loadDataDir = templates ? await pgliteTemplateOf(templates) : undefined;
    return openDatabase({ kind: "pglite", migrate: true, loadDataDir });
  }

  const { url, drop } = await newPostgresDatabase(await runPostgresTemplate());
  let database: Database;
  try {
    database = await openDatabase({
      kind: "postgres",
      url: kind === "pgbouncer" ? throughPgbouncer(url) : url,
      migrate: true,
      max: 4,
    });
  } catch (error) {
    await drop();
    throw error;
  }
  return {
    ...database,
    async close() {
      await database.close();
      await drop();
    },
  };
}
