/**
 * The one database handle. `DATABASE_URL` set → a node-postgres pool on that Postgres;
 * unset → embedded PGlite with pgvector, persisted under `.lifeline/` (or `LIFELINE_DATA_DIR`),
 * with migrations applied on first use. Both are drizzle's Postgres API with the same schema.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { SQL } from "drizzle-orm";
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePostgres } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { Pool } from "pg";
import { env as processEnv, type RawEnv } from "../core/env";
import { logger } from "../core/logger";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The drizzle handle every query takes as its first argument. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DbKind = "postgres" | "pglite";

export interface Database {
  db: Db;
  kind: DbKind;
  /** Runs raw SQL with $1… parameters, on either driver. */
  query<T extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** Runs a raw `sql` query through drizzle and returns its rows, typed, on either driver. */
export async function selectRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

export function defaultDataDir(): string {
  return processEnv().LIFELINE_DATA_DIR ?? path.join(process.cwd(), ".lifeline", "pglite");
}

export type DatabaseOptions =
  | { kind: "postgres"; url: string; migrate?: boolean; max?: number }
  /** dataDir undefined → in memory (tests). */
  | { kind: "pglite"; dataDir?: string; migrate?: boolean };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") {
    const pool = new Pool({ connectionString: options.url, max: options.max ?? 10 });
    // An idle connection the server ends (restart, failover, a dropped database) is reported here;
    // without a listener node-postgres rethrows it and the whole process dies. The pool replaces it.
    pool.on("error", (error) => logger.warn({ err: error }, "an idle database connection was closed"));
    const db = drizzleNodePostgres(pool, { schema }) as unknown as Db;
    const database: Database = {
      db,
      kind: "postgres",
      async query(text, params) {
        const res = await pool.query(text, params as unknown[]);
        return res.rows;
      },
      close: () => pool.end(),
    };
    if (options.migrate) await migrateDatabase(database);
    return database;
  }

  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir: options.dataDir, extensions: { vector } });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const database: Database = {
    db,
    kind: "pglite",
    async query(text, params) {
      const res = await client.query(text, params as unknown[]);
      return res.rows as never[];
    },
    close: () => client.close(),
  };
  if (options.migrate ?? true) await migrateDatabase(database);
  return database;
}

/** Applies every migration in db/migrations that has not been applied yet. */
export async function migrateDatabase(database: Database): Promise<void> {
  const migrate = database.kind === "postgres" ? migrateNodePostgres : migratePglite;
  await migrate(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
}

/** What the environment selects: Postgres when DATABASE_URL is set, else embedded PGlite. */
export function optionsFromEnv(env: RawEnv = processEnv()): DatabaseOptions {
  // Migrations are applied on first use unless LIFELINE_AUTO_MIGRATE=0 (then run `npm run db:migrate`).
  const migrate = env.LIFELINE_AUTO_MIGRATE !== "0";
  if (env.DATABASE_URL) return { kind: "postgres", url: env.DATABASE_URL, migrate };
  return { kind: "pglite", dataDir: env.LIFELINE_DATA_DIR ?? defaultDataDir(), migrate };
}

// One instance per server process, kept across dev-server hot reloads.
const globalForDb = globalThis as unknown as { __lifelineDb?: Promise<Database> };

/** The process-wide database selected by the environment. */
export function getDatabase(): Promise<Database> {
  if (!globalForDb.__lifelineDb) {
    globalForDb.__lifelineDb = openDatabase(optionsFromEnv()).catch((error) => {
      globalForDb.__lifelineDb = undefined;
      throw error;
    });
  }
  return globalForDb.__lifelineDb;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Replaces the process-wide database (tests and scripts that bring their own). */
export function setDatabase(database: Database | undefined): void {
  globalForDb.__lifelineDb = database ? Promise.resolve(database) : undefined;
}
