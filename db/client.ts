/**
 * DATABASE_URL set → Postgres, checked for pgvector on open and migrated by the build (never on first use unless
 * LIFELINE_AUTO_MIGRATE=1). Unset → embedded PGlite, migrated on first use. PGlite is imported only when opened,
 * so a Postgres server never loads it (docs/deploy.md has the sizes).
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
  /**
   * The same database for a background job that lets requests go first: each statement outside a transaction, and
   * each transaction, awaits `before` first. On PGlite a statement holds the process's event loop and its one
   * connection, so between the job's statements is where a request that arrived gets in; on Postgres the job's
   * statements hold neither (they wait on a pool connection of their own), and `db` itself is returned.
   */
  yieldingTo(before: () => Promise<void>): Db;
  /** On Postgres under MIGRATION_LOCK, one migrator at a time. */
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
      /** A direct connection beside a pooled `url`. */
      migrationUrl?: string;
      migrate?: boolean;
      max?: number;
    }
  /** dataDir undefined → in memory. loadDataDir: start from a migrated template's dump (tests). */
  | { kind: "pglite"; dataDir?: string; migrate?: boolean; loadDataDir?: Blob };

/** Concurrent builds or cold starts wait for each other, then find nothing left to apply. These bytes spell "lifeline". */
export const MIGRATION_LOCK = "7811887614447414885";

/** Never includes the password. */
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
 * A one-line cause when the server was not reached, null when it was. For a host with several addresses
 * node-postgres passes an AggregateError with an empty message.
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
 * Not `instanceof`: the production server loads this module once per bundle, and the process-wide database
 * promise may have been rejected by another bundle's copy, whose class is a different object.
 */
export function isDbError(error: unknown, name: "PgvectorError" | "DatabaseUnreachableError"): error is Error {
  return error instanceof Error && error.name === name;
}

/** `migrating`: the migrations are about to run and will enable the extension when the server has it. */
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
 * One transaction under a transaction-level advisory lock: a session-level lock and its unlock can land on
 * different server connections behind a transaction-mode pooler, and the next migrator then waits forever.
 * The bookkeeping is drizzle's own, so the embedded and Postgres migrators agree (db/migrations.int.test.ts).
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

/** node-postgres hangs the idle client on the error: only its type, code and message are logged. */
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

/**
 * The client whose `query`, `exec` and `transaction` await `before` first. A transaction's own statements go through
 * the object PGlite hands its callback, so they are not held: a request's statements could not run before the
 * transaction ends anyway, and holding them would only hold PGlite's lock longer.
 */
export function waitingBefore<C extends object>(client: C, before: () => Promise<void>): C {
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property !== "query" && property !== "exec" && property !== "transaction") return value.bind(target);
      return async (...args: unknown[]) => {
        await before();
        return value.apply(target, args);
      };
    },
  });
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") {
    const { url } = options;
    const pool = new Pool({ connectionString: url, max: options.max ?? 10 });
    // Without a listener node-postgres rethrows an idle connection's error and the process dies; the pool replaces it.
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
      yieldingTo: () => db,
      migrate: () => migrateOver(pool, url, options.migrationUrl),
      close: () => pool.end(),
    };
    try {
      if (options.migrate) await database.migrate();
      else await checkPgvector(pool, url, false);
    } catch (error) {
      await pool.end();
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

  // Hidden from Next's file tracer: next.config.ts traces PGlite only into builds without DATABASE_URL.
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
    yieldingTo: (before) => drizzlePglite(waitingBefore(client, before), { schema }) as unknown as Db,
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
  };
  if (options.migrate ?? true) await database.migrate();
  return database;
}

export async function migrateDatabase(database: Database): Promise<void> {
  await database.migrate();
}

/** The direct URL Neon or Vercel Postgres sets beside a pooled DATABASE_URL: the providers' advice for DDL. */
export function migrationUrl(env: RawEnv = processEnv()): string | undefined {
  return env.DATABASE_URL_UNPOOLED || env.POSTGRES_URL_NON_POOLING || env.DATABASE_URL || undefined;
}

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

// Kept across dev-server hot reloads.
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

/** For tests and scripts that bring their own. */
export function setDatabase(database: Database | undefined): void {
  globalForDb.__lifelineDb = database ? Promise.resolve(database) : undefined;
}
