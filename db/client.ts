/**
 * The one database handle. `DATABASE_URL` set → a node-postgres pool on that Postgres, checked for
 * pgvector when it opens (a clear error naming the fix, not a crash in the first query), migrated
 * by `npm run build` (db/migrate.ts) under an advisory lock — never on first use unless
 * LIFELINE_AUTO_MIGRATE=1. Unset → embedded PGlite with pgvector, persisted under `.lifeline/` (or
 * `LIFELINE_DATA_DIR`), migrated on first use (LIFELINE_AUTO_MIGRATE=0 turns that off). Both are
 * drizzle's Postgres API with the same schema.
 *
 * PGlite is imported only when it is opened (a dynamic import), so a server on Postgres never
 * loads it; next.config.ts also leaves it out of the deployment's traced files when the build has
 * a DATABASE_URL (docs/deploy.md has the sizes).
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { Pool, type PoolClient } from "pg";
import { env as processEnv, type RawEnv } from "../core/env";
import { logger } from "../core/logger";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DbKind = "postgres" | "pglite";

export interface Database {
  db: Db;
  kind: DbKind;
  query<T extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Applies the migrations not applied yet (on Postgres under MIGRATION_LOCK, one migrator at a time). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export async function selectRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

export function defaultDataDir(): string {
  return processEnv().LIFELINE_DATA_DIR ?? path.join(process.cwd(), ".lifeline", "pglite");
}

export type DatabaseOptions =
  | {
      kind: "postgres";
      url: string;
      /** Where migrations run, when not `url`: a direct connection beside a pooled `url` (migrationUrl). */
      migrationUrl?: string;
      migrate?: boolean;
      max?: number;
    }
  /**
   * dataDir undefined → in memory (tests). loadDataDir: start from a copy of a database PGlite
   * dumped (its dumpDataDir), instead of an empty one — tests start from a migrated template.
   */
  | { kind: "pglite"; dataDir?: string; migrate?: boolean; loadDataDir?: Blob };

/**
 * The key of the Postgres advisory lock every migrator takes (db/migrate.ts at build time, and
 * LIFELINE_AUTO_MIGRATE=1 servers at their first query): concurrent builds or cold starts wait for
 * each other, and the later ones find nothing left to apply. Any fixed bigint; this one spells
 * "lifeline" in ASCII.
 */
export const MIGRATION_LOCK = "7811887614447414885";

/** The place a DATABASE_URL points at, for messages: host, port and database — never the password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return "(unparsable URL)";
  }
}

export function databaseHostPort(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}`;
  } catch {
    return "(unparsable URL)";
  }
}

const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Why `error` says the database server was not reached, as one line ("connect ECONNREFUSED
 * 127.0.0.1:1"), or null when it was reached (a refused password, a missing database, pgvector).
 * node-postgres passes the socket's error through; for a host name with several addresses it is an
 * AggregateError with one error per address and an empty message.
 */
export function unreachableCause(error: unknown): string | null {
  const seen = new Set<unknown>();
  const visit = (value: unknown): string | null => {
    if (!value || typeof value !== "object" || seen.has(value)) return null;
    seen.add(value);
    const { code, message, errors, cause } = value as {
      code?: unknown;
      message?: unknown;
      errors?: unknown;
      cause?: unknown;
    };
    if (typeof code === "string" && UNREACHABLE_CODES.has(code)) {
      const inner = Array.isArray(errors) ? errors.map((e) => (e as Error)?.message).filter(Boolean) : [];
      return inner.length > 0 ? inner.join("; ") : typeof message === "string" && message ? message : code;
    }
    if (Array.isArray(errors))
      for (const inner of errors) {
        const found = visit(inner);
        if (found) return found;
      }
    return visit(cause);
  };
  return visit(error);
}

export class DatabaseUnreachableError extends Error {
  override readonly name = "DatabaseUnreachableError";
}

function unreachableError(error: unknown, variable: string, url: string): unknown {
  const cause = unreachableCause(error);
  if (!cause) return error;
  return new DatabaseUnreachableError(`cannot reach the database at ${variable} (${databaseHostPort(url)}): ${cause}`, {
    cause: error,
  });
}

export interface PgvectorState {
  installed: string | null;
  available: string | null;
}

export class PgvectorError extends Error {
  override readonly name = "PgvectorError";
}

/**
 * Whether `error` is one of this module's errors, by name. Not `instanceof`: the production server
 * loads this module once per bundle (instrumentation, each route), and the process-wide database
 * promise (getDatabase) may have been opened — and rejected — by another bundle's copy, whose class
 * is a different object (tests/production/refusals.prod.test.ts: /api/health said "db" for pgvector).
 */
export function isDbError(error: unknown, name: "PgvectorError" | "DatabaseUnreachableError"): error is Error {
  return error instanceof Error && error.name === name;
}

/**
 * What is wrong with pgvector in this database, as a message naming DATABASE_URL and the fix, or
 * null when nothing is. `migrating`: the migrations are about to run (they enable the extension
 * when the server has it).
 */
export function pgvectorProblem(state: PgvectorState, where: string, migrating: boolean): string | null {
  if (state.installed) return null;
  if (!state.available) {
    return (
      `DATABASE_URL points at a Postgres server (${where}) without the pgvector extension ("vector"): Lifeline ` +
      "stores embeddings in vector columns and cannot run there. Use a Postgres with pgvector (Neon, Supabase and " +
      "Vercel's marketplace Postgres have it) or install pgvector on this server (https://github.com/pgvector/pgvector), " +
      "then deploy again. See docs/deploy.md."
    );
  }
  if (migrating) return null;
  return (
    `The database at DATABASE_URL (${where}) has not been migrated: pgvector ${state.available} is available on the ` +
    "server but not enabled in this database. Run the migrations — `npm run build` does when DATABASE_URL is set, " +
    "or `npm run db:migrate` — as a role allowed to CREATE EXTENSION vector. See docs/deploy.md."
  );
}

const PGVECTOR_STATE_SQL = `SELECT
  (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS installed,
  (SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS available`;

async function checkPgvector(client: Pool | PoolClient, url: string, migrating: boolean): Promise<void> {
  const { rows } = await client.query<{ installed: string | null; available: string | null }>(PGVECTOR_STATE_SQL);
  const problem = pgvectorProblem(rows[0] ?? { installed: null, available: null }, describeDatabaseUrl(url), migrating);
  if (problem) throw new PgvectorError(problem);
}

function migrationError(error: unknown, url: string): unknown {
  const code = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
  const text = String((error as { cause?: unknown }).cause ?? error);
  if (code === "42501" && /extension/i.test(text)) {
    return new PgvectorError(
      `The role in DATABASE_URL (${describeDatabaseUrl(url)}) may not enable pgvector (CREATE EXTENSION vector: ` +
        "permission denied). Enable it once as the database owner or an administrator — `CREATE EXTENSION vector;`, " +
        "or your provider's dashboard — then run the migrations again. See docs/deploy.md.",
    );
  }
  return error;
}

/**
 * Applies the pending migrations in ONE transaction that first takes a transaction-level advisory
 * lock (concurrent migrators wait, then find nothing left to apply). Correct through a
 * transaction-mode pooler too (PgBouncer, Neon's -pooler host, Supabase's port 6543), where a
 * session-level lock and its unlock can land on different server connections — the next migrator
 * then waits forever. The bookkeeping is drizzle's, as its pg migrator writes it
 * (drizzle.__drizzle_migrations: the migration's hash, created_at = its journal `when`), so the
 * embedded database (drizzle's migrator) and this one agree (db/migrations.int.test.ts).
 */
async function migratePostgres(pool: Pool, url: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [MIGRATION_LOCK]);
    await checkPgvector(client, url, true);
    await client.query("CREATE SCHEMA IF NOT EXISTS drizzle");
    await client.query(
      "CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)",
    );
    const { rows } = await client.query<{ created_at: string }>(
      "SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1",
    );
    const last = rows[0] ? Number(rows[0].created_at) : Number.NEGATIVE_INFINITY;
    for (const migration of readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER })) {
      if (migration.folderMillis <= last) continue;
      for (const statement of migration.sql) if (statement.trim()) await client.query(statement);
      await client.query("INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)", [
        migration.hash,
        migration.folderMillis,
      ]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw migrationError(error, url);
  } finally {
    client.release();
  }
}

/**
 * What a log line says about a connection the server closed. node-postgres hangs the idle client on
 * the error (its type table, socket state, database name): only the type, code and message are logged.
 */
function closedConnectionError(error: Error): { type: string; code?: string; message: string } {
  const code = (error as { code?: unknown }).code;
  return { type: error.constructor.name, ...(typeof code === "string" ? { code } : {}), message: error.message };
}

async function migrateOver(pool: Pool, url: string, migrationUrl: string | undefined): Promise<void> {
  if (!migrationUrl || migrationUrl === url) return migratePostgres(pool, url);
  const direct = new Pool({ connectionString: migrationUrl, max: 1 });
  direct.on("error", (error) =>
    logger.warn({ error: closedConnectionError(error) }, "the migration connection was closed"),
  );
  try {
    await migratePostgres(direct, migrationUrl);
  } finally {
    await direct.end();
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") {
    const { url } = options;
    const pool = new Pool({ connectionString: url, max: options.max ?? 10 });
    // An idle connection the server ends (restart, failover, a dropped database) is reported here;
    // without a listener node-postgres rethrows it and the whole process dies. The pool replaces it.
    pool.on("error", (error) =>
      logger.warn({ error: closedConnectionError(error) }, "an idle database connection was closed"),
    );
    const db = drizzleNodePostgres(pool, { schema }) as unknown as Db;
    const database: Database = {
      db,
      kind: "postgres",
      async query(text, params) {
        const res = await pool.query(text, params as unknown[]);
        return res.rows;
      },
      migrate: () => migrateOver(pool, url, options.migrationUrl),
      close: () => pool.end(),
    };
    try {
      if (options.migrate) await database.migrate();
      else await checkPgvector(pool, url, false);
    } catch (error) {
      await pool.end();
      // Migrating connects to the direct URL first when one is set beside a pooled DATABASE_URL.
      const direct = options.migrate && options.migrationUrl && options.migrationUrl !== url;
      throw direct && unreachableCause(error)
        ? unreachableError(
            error,
            "the migrations' URL (DATABASE_URL_UNPOOLED or POSTGRES_URL_NON_POOLING)",
            options.migrationUrl ?? url,
          )
        : unreachableError(error, "DATABASE_URL", url);
    }
    return database;
  }

  // Loaded only here, and hidden from Next's file tracer: next.config.ts traces PGlite into a
  // deployment only when it is built without DATABASE_URL (conditionalTracing).
  const [{ PGlite }, { vector }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import(/* turbopackIgnore: true */ "@electric-sql/pglite"),
    import(/* turbopackIgnore: true */ "@electric-sql/pglite-pgvector"),
    import(/* turbopackIgnore: true */ "drizzle-orm/pglite"),
    import(/* turbopackIgnore: true */ "drizzle-orm/pglite/migrator"),
  ]).catch((error: unknown) => {
    throw new Error(
      `Could not load the embedded database (PGlite): ${error instanceof Error ? error.message : String(error)}. ` +
        "A deployment built with DATABASE_URL does not carry it: set DATABASE_URL at run time too.",
      { cause: error },
    );
  });
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    dataDir: options.dataDir,
    extensions: { vector },
    loadDataDir: options.loadDataDir,
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const database: Database = {
    db,
    kind: "pglite",
    async query(text, params) {
      const res = await client.query(text, params as unknown[]);
      return res.rows as never[];
    },
    // One process owns a PGlite directory: no lock needed.
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
  };
  if (options.migrate ?? true) await database.migrate();
  return database;
}

export async function migrateDatabase(database: Database): Promise<void> {
  await database.migrate();
}

/**
 * Where migrations connect: the direct URL Neon's integration (DATABASE_URL_UNPOOLED) or Vercel's
 * Postgres (POSTGRES_URL_NON_POOLING) sets beside a pooled DATABASE_URL — the providers' advice for
 * DDL — else DATABASE_URL itself (migratePostgres is safe through a pooler as well).
 */
export function migrationUrl(env: RawEnv = processEnv()): string | undefined {
  return env.DATABASE_URL_UNPOOLED || env.POSTGRES_URL_NON_POOLING || env.DATABASE_URL || undefined;
}

/**
 * What the environment selects: Postgres when DATABASE_URL is set, else embedded PGlite.
 * First-use migration is for the embedded default (unless LIFELINE_AUTO_MIGRATE=0); Postgres is
 * migrated by the build (`npm run build` runs db/migrate.ts --build first), or at first use with LIFELINE_AUTO_MIGRATE=1.
 */
export function optionsFromEnv(env: RawEnv = processEnv()): DatabaseOptions {
  if (env.DATABASE_URL) {
    return {
      kind: "postgres",
      url: env.DATABASE_URL,
      migrationUrl: migrationUrl(env),
      migrate: env.LIFELINE_AUTO_MIGRATE === "1",
    };
  }
  return {
    kind: "pglite",
    dataDir: env.LIFELINE_DATA_DIR ?? defaultDataDir(),
    migrate: env.LIFELINE_AUTO_MIGRATE !== "0",
  };
}

// One instance per server process, kept across dev-server hot reloads.
const globalForDb = globalThis as unknown as { __lifelineDb?: Promise<Database> };

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
