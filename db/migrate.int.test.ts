/**
 * Migrations on deploy, on the real Postgres: the build's step (`npm run build` runs
 * `tsx db/migrate.ts --build` before `next build`) applies each migration once even when two run
 * at the same time (the advisory lock of db/client.ts), does nothing without DATABASE_URL, and a
 * database whose role cannot enable pgvector fails with a message naming DATABASE_URL and the fix.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabaseUrl, TEST_DATABASE_URL } from "@/tests/db";
import { openDatabase, PgvectorError } from "./client";

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
