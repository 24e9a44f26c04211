/**
 * Migrations on deploy, on the real Postgres: the build's step (`npm run build` runs
 * `tsx db/migrate.ts --build` before `next build`) applies each migration once even when two run
 * at the same time (the advisory lock of db/client.ts), does nothing without DATABASE_URL, and a
 * database whose role cannot enable pgvector fails with a message naming DATABASE_URL and the fix.
 * Behind a pooler — PgBouncer in transaction mode, as Neon's and Supabase's pooled URLs run — the
 * migrations use the direct URL the integrations set beside it, and are correct through the pooler
 * when there is none.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabaseUrl, TEST_DATABASE_URL, throughPgbouncer } from "@/tests/db";
import { migrationUrl, openDatabase, PgvectorError } from "./client";

const execFileAsync = promisify(execFile);
const JOURNAL = JSON.parse(readFileSync(path.join(process.cwd(), "db/migrations/meta/_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};

/** The build's migration step, in its own process, as `npm run build` runs it. */
function buildStep(env: Record<string, string>) {
  return execFileAsync(
    process.execPath,
    [path.join("node_modules", "tsx", "dist", "cli.mjs"), "db/migrate.ts", "--build"],
    {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", LOG_LEVEL: "warn", ...env },
    },
  );
}

async function appliedMigrations(url: string): Promise<{ hash: string }[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ hash: string }>("SELECT hash FROM drizzle.__drizzle_migrations")).rows;
  } finally {
    await client.end();
  }
}

/** Advisory locks any session holds in the database at `url` (the migration lock, if one was left). */
async function advisoryLocks(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      "SELECT count(*)::text AS count FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = current_database()",
    );
    return Number(rows[0]?.count);
  } finally {
    await client.end();
  }
}

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe("migrations on deploy (Postgres)", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("the build step run twice at the same time (two processes, not two full builds) applies each migration once", async () => {
    const { url, drop } = await createPostgresTestDatabaseUrl();
    cleanups.push(drop);
    const runs = await Promise.all([buildStep({ DATABASE_URL: url }), buildStep({ DATABASE_URL: url })]);
    for (const run of runs)
      expect(run.stdout).toMatch(new RegExp(`Migrations applied to postgres .*: ${JOURNAL.entries.length} in total`));
    const applied = await appliedMigrations(url);
    expect(applied).toHaveLength(JOURNAL.entries.length);
    expect(new Set(applied.map((row) => row.hash)).size).toBe(JOURNAL.entries.length);
  }, 60_000);

  it("two servers migrating at their first query at once (LIFELINE_AUTO_MIGRATE=1) apply each migration once", async () => {
    const { url, drop } = await createPostgresTestDatabaseUrl();
    cleanups.push(drop);
    const opened = await Promise.all([
      openDatabase({ kind: "postgres", url, migrate: true, max: 2 }),
      openDatabase({ kind: "postgres", url, migrate: true, max: 2 }),
      openDatabase({ kind: "postgres", url, migrate: true, max: 2 }),
    ]);
    await Promise.all(opened.map((database) => database.close()));
    const applied = await appliedMigrations(url);
    expect(applied).toHaveLength(JOURNAL.entries.length);
    expect(new Set(applied.map((row) => row.hash)).size).toBe(JOURNAL.entries.length);
  }, 60_000);

  it("through PgBouncer in transaction mode alone, three servers migrating at once apply each migration once and leave no lock", async () => {
    const { url, drop } = await createPostgresTestDatabaseUrl();
    cleanups.push(drop);
    const pooled = throughPgbouncer(url);
    const opened = await Promise.all(
      [1, 2, 3].map(() => openDatabase({ kind: "postgres", url: pooled, migrate: true, max: 2 })),
    );
    await Promise.all(opened.map((database) => database.close()));
    const applied = await appliedMigrations(url);
    expect(applied).toHaveLength(JOURNAL.entries.length);
    expect(new Set(applied.map((row) => row.hash)).size).toBe(JOURNAL.entries.length);
    expect(await advisoryLocks(url)).toBe(0);
  }, 60_000);

  it("with a pooled DATABASE_URL, the build step migrates over DATABASE_URL_UNPOOLED or POSTGRES_URL_NON_POOLING", async () => {
    for (const name of ["DATABASE_URL_UNPOOLED", "POSTGRES_URL_NON_POOLING"]) {
      const { url, drop } = await createPostgresTestDatabaseUrl();
      cleanups.push(drop);
      const { stdout } = await buildStep({ DATABASE_URL: throughPgbouncer(url), [name]: url });
      const direct = new URL(url);
      expect(stdout).toContain(`Migrations applied to postgres (${direct.host}${direct.pathname})`);
      expect(await appliedMigrations(url)).toHaveLength(JOURNAL.entries.length);
    }
    expect(migrationUrl({ DATABASE_URL: "postgres://pooled/db" })).toBe("postgres://pooled/db");
    expect(migrationUrl({})).toBeUndefined();
  }, 60_000);

  it("without DATABASE_URL the build step migrates nothing and creates no embedded database", async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "lifeline-build-")), "pglite");
    const { stdout } = await buildStep({ LIFELINE_DATA_DIR: dataDir });
    expect(stdout).toContain("No DATABASE_URL: no migrations at build time");
    expect(existsSync(dataDir)).toBe(false);
  }, 30_000);

  it("a role that may not enable pgvector: the server and the build step name DATABASE_URL and the fix", async () => {
    const { url, drop } = await createPostgresTestDatabaseUrl();
    const role = `lifeline_novector_${process.pid}_${Date.now()}`;
    const database = new URL(url).pathname.slice(1);
    await admin(`CREATE ROLE ${role} LOGIN PASSWORD 'novector'`);
    await admin(`GRANT ALL ON DATABASE ${database} TO ${role}`);
    cleanups.push(async () => {
      await drop();
      await admin(`DROP ROLE IF EXISTS ${role}`);
    });
    const asRole = new URL(url);
    asRole.username = role;
    asRole.password = "novector";

    // A server (no migration at first use): the database is not migrated — run the migrations.
    const opening = openDatabase({ kind: "postgres", url: asRole.toString(), max: 1 });
    await expect(opening).rejects.toBeInstanceOf(PgvectorError);
    await expect(opening).rejects.toThrow(/DATABASE_URL .* has not been migrated.*npm run build/s);

    // The build step: this role cannot CREATE EXTENSION vector.
    const failure = await buildStep({ DATABASE_URL: asRole.toString() }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/The role in DATABASE_URL .* may not enable pgvector.*CREATE EXTENSION vector/s);
    expect(failure?.stderr).not.toContain("novector@");
  }, 60_000);
});
