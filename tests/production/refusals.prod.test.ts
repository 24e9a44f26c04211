/**
 * Starting the production build (`next start`, NODE_ENV=production) with an unsafe or broken
 * setting prints a clear error naming the variable — one server per case, started at the same
 * time. The first five are refused by instrumentation.ts register() (core/env.ts), which Next
 * prints as "An error occurred while loading instrumentation hook: …" and then fails every
 * request; the last two start, print the database's problem at start (lib/runtime.ts
 * checkDatabaseInBackground) and report it in /api/health.
 */
import { Client } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabaseUrl, TEST_DATABASE_URL } from "../db";
import { launchNextServer, type NextServer } from "./next-server";

const SAFE = {
  NODE_ENV: "production",
  DATABASE_URL: TEST_DATABASE_URL,
  INNGEST_EVENT_KEY: "refusal-test-event-key",
  INNGEST_SIGNING_KEY: `signkey-prod-${"ef56".repeat(16)}`,
  AUTH_SECRET: "refusal-test-secret-0123456789abcdef0123",
  AUTH_TRUST_HOST: "true",
  LIFELINE_PASSWORD_HASH_COST: "10",
  LIFELINE_HEALTH_TOKEN: "refusal-test-health-token",
};

const servers: NextServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const cleanup of cleanups) await cleanup();
});

/**
 * Starts the build with `env`, waits until it prints `expected`, and returns the status /api/health
 * then gets — or "exited" when the server refused to serve at all (a malformed variable makes
 * next.config.ts, which reads the configuration, throw when the server loads it).
 */
async function startAndExpect(env: Record<string, string>, expected: RegExp): Promise<number | "exited"> {
  return (await startAndExpectServer(env, expected)).status;
}

async function startAndExpectServer(
  env: Record<string, string>,
  expected: RegExp,
): Promise<{ status: number | "exited"; server: NextServer }> {
  const server = await launchNextServer(env);
  servers.push(server);
  // Next runs register() while it preloads, right after "Ready"; a request makes sure it has run.
  const ready = await server.waitForOutput(/Ready in/, 60_000).then(
    () => true,
    () => false,
  );
  const status = ready
    ? await fetch(`${server.url}/api/health`).then(
        (response) => response.status,
        () => "exited" as const,
      )
    : ("exited" as const);
  await server.waitForOutput(expected, 30_000);
  return { status, server };
}

const without = (...names: (keyof typeof SAFE)[]) =>
  Object.fromEntries(Object.entries(SAFE).filter(([name]) => !names.includes(name as keyof typeof SAFE)));

describe.concurrent("next start in production refuses unsafe or broken settings, naming the variable", () => {
  it("no DATABASE_URL", async () => {
    const status = await startAndExpect(without("DATABASE_URL"), /instrumentation hook[\s\S]*DATABASE_URL is not set/);
    expect(status).toBe(500);
  });

  it("no Inngest keys", async () => {
    const status = await startAndExpect(
      without("INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY"),
      /INNGEST_EVENT_KEY is not set \(nor INNGEST_SIGNING_KEY\)[^\n]*LIFELINE_ALLOW_IN_PROCESS_JOBS=1/,
    );
    expect(status).toBe(500);
  });

  it("an Inngest event key without the signing key", async () => {
    const status = await startAndExpect(without("INNGEST_SIGNING_KEY"), /INNGEST_SIGNING_KEY is not set/);
    expect(status).toBe(500);
  });

  it("no AUTH_SECRET", async () => {
    const status = await startAndExpect(without("AUTH_SECRET"), /AUTH_SECRET is not set[^\n]*openssl rand/);
    expect(status).toBe(500);
  });

  it("a malformed DATABASE_URL", async () => {
    const status = await startAndExpect(
      { ...SAFE, DATABASE_URL: "mysql://lifeline@db.example.com/lifeline" },
      /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/,
    );
    // Refused either way: next.config.ts stops the start, or register() fails every request.
    expect([500, "exited"]).toContain(status);
  });

  it("an unreachable database: named with its host and port and the cause, once, and in /api/health", async () => {
    // Port 1 on the loopback: nothing listens there, so every connection is refused at once.
    const { status, server } = await startAndExpectServer(
      { ...SAFE, DATABASE_URL: "postgresql://lifeline:secret-password@127.0.0.1:1/lifeline" },
      /cannot reach the database at DATABASE_URL \(127\.0\.0\.1:1\): connect ECONNREFUSED 127\.0\.0\.1:1/,
    );
    expect(status).toBe(503);
    const health = await fetch(`${server.url}/api/health`, {
      headers: { authorization: `Bearer ${SAFE.LIFELINE_HEALTH_TOKEN}` },
    });
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({
      ok: false,
      failing: "db",
      error: "cannot reach the database at DATABASE_URL (127.0.0.1:1): connect ECONNREFUSED 127.0.0.1:1",
    });
    // Every start-up task (the check, resuming extractions, the sweeps, re-embedding) met the same
    // error; only the first reports it, and no task's own line hides it.
    const output = server.output();
    expect(output.match(/cannot reach the database at DATABASE_URL/g)).toHaveLength(1);
    expect(output).not.toMatch(/could not (?:re-embed|resume|look for)/);
    expect(output).not.toContain("secret-password");
  });

  it("a database without pgvector (not enabled, and a role that may not enable it)", async () => {
    const { url, drop } = await createPostgresTestDatabaseUrl();
    const role = `lifeline_prod_novector_${process.pid}`;
    const admin = async (sql: string) => {
      const client = new Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(sql).finally(() => client.end());
    };
    await admin(`CREATE ROLE ${role} LOGIN PASSWORD 'novector'`);
    cleanups.push(async () => {
      await drop();
      await admin(`DROP ROLE IF EXISTS ${role}`);
    });
    const asRole = new URL(url);
    asRole.username = role;
    asRole.password = "novector";

    const { status, server } = await startAndExpectServer(
      { ...SAFE, DATABASE_URL: asRole.toString() },
      /The database at DATABASE_URL \([^)]*\) has not been migrated: pgvector [\d.]+ is available on the server but not enabled/,
    );
    expect(status).toBe(503);
    const health = await fetch(`${server.url}/api/health`, {
      headers: { authorization: `Bearer ${SAFE.LIFELINE_HEALTH_TOKEN}` },
    });
    expect(await health.json()).toMatchObject({
      ok: false,
      failing: "pgvector",
      error: expect.stringContaining("DATABASE_URL"),
    });
  });
});
