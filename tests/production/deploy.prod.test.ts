/**
 * The deployment a deployer makes, end to end, on the production build (`.next`): `next start`
 * with NODE_ENV=production, a fresh database on the real Postgres migrated by the build's
 * migration step (`npm run build` runs it as `prebuild`), Inngest "Cloud" with an event key and a
 * signing key — the stand-in of tests/production/fake-inngest.ts, which signs its calls to
 * /api/inngest exactly as Inngest does — the offline model, and no PGlite anywhere.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabaseUrl } from "../db";
import { registerAndSignIn } from "../http-client";
import { type FakeInngest, inngestSignature, startFakeInngest } from "./fake-inngest";
import { type NextServer, startNextServer } from "./next-server";

const run = promisify(execFile);
const SIGNING_KEY = `signkey-prod-${"ab12".repeat(16)}`;
const HEALTH_TOKEN = "production-test-health-token";

describe("production deployment: next start on Postgres with Inngest Cloud (signed calls), no PGlite", () => {
  let database: { url: string; drop(): Promise<void> };
  let inngest: FakeInngest;
  let server: NextServer;
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "lifeline-prod-")), "pglite");

  beforeAll(async () => {
    database = await createPostgresTestDatabaseUrl();
    // The build's migration step, as `npm run build` runs it on Vercel.
    await run(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "db/migrate.ts", "--build"], {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATABASE_URL: database.url, LOG_LEVEL: "warn" },
    });
    let appUrl = "";
    inngest = await startFakeInngest({
      signingKey: SIGNING_KEY,
      functionIds: { "lifeline/message-pair.completed": "lifeline-extract-memories" },
      appUrl: () => appUrl,
    });
    server = await startNextServer({
      NODE_ENV: "production",
      DATABASE_URL: database.url,
      INNGEST_EVENT_KEY: "production-test-event-key",
      INNGEST_SIGNING_KEY: SIGNING_KEY,
      INNGEST_BASE_URL: inngest.url,
      AUTH_SECRET: "production-test-secret-0123456789abcdef0123456789",
      AUTH_TRUST_HOST: "true",
      LIFELINE_PASSWORD_HASH_COST: "10",
      LIFELINE_HEALTH_TOKEN: HEALTH_TOKEN,
      // Set so that any use of PGlite would show: the test checks it is never created.
      LIFELINE_DATA_DIR: dataDir,
      LIFELINE_OFFLINE_DELAY_MS: "0",
      LOG_LEVEL: "info",
    });
    appUrl = server.url;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await inngest?.close();
    await database?.drop();
  });

  it("passes the health check on Postgres with Inngest as the runner, served by the pinned Node.js", async () => {
    const response = await fetch(`${server.url}/api/health`, { headers: { authorization: `Bearer ${HEALTH_TOKEN}` } });
    const health = (await response.json()) as Record<string, unknown>;
    expect({ status: response.status, ...health }).toMatchObject({
      status: "ok",
      ok: true,
      db: "postgres",
      jobs: "inngest",
      // `next start` runs on the binary npm scripts put first on the PATH (tests/runtime.test.ts).
      node: process.version,
    });
    expect(health.warnings ?? []).toEqual([]);
  });

  it("refuses calls to /api/inngest that Inngest did not sign", async () => {
    const body = JSON.stringify({
      event: { name: "lifeline/message-pair.completed", data: {} },
      steps: {},
      ctx: { run_id: "x" },
    });
    const call = (signature?: string) =>
      fetch(`${server.url}/api/inngest?fnId=lifeline-extract-memories&stepId=step`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(signature ? { "x-inngest-signature": signature } : {}) },
        body,
      });
    const unsigned = await call();
    const wrongKey = await call(await inngestSignature(body, `signkey-prod-${"cd34".repeat(16)}`));
    // Signed for another body: the signature covers the content.
    const otherBody = await call(await inngestSignature(body.replace('"run_id":"x"', '"run_id":"y"'), SIGNING_KEY));
    const stale = await call(await inngestSignature(body, SIGNING_KEY, new Date(Date.now() - 10 * 60_000)));
    expect([unsigned.status, wrongKey.status, otherBody.status, stale.status]).toEqual([401, 401, 401, 401]);
  });

  it("runs a chat turn whose extraction Inngest runs through signed calls, and the memories land", async () => {
    const user = await registerAndSignIn(server.url, "prod");
    const chat = await user.client.request("POST", "/api/chat", {
      json: { message: { text: "I live in Lisbon and I work as a marine biologist." } },
    });
    expect(chat.status).toBe(200);
    expect(chat.headers.get("x-request-id")).toBeTruthy();

    let memories: { content: string }[] = [];
    for (let i = 0; i < 150 && memories.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const list = await user.client.request("GET", "/api/memories");
      memories = (list.json as { memories: { content: string }[] }).memories;
    }
    // The memories land at the store step; the run has steps after it: let it finish.
    for (let i = 0; i < 150 && inngest.runs[0]?.status === "running"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(inngest.events.map((event) => event.name)).toContain("lifeline/message-pair.completed");
    expect(inngest.runs).toHaveLength(1);
    expect({ status: inngest.runs[0]?.status, error: inngest.runs[0]?.error }).toEqual({
      status: "completed",
      error: undefined,
    });
    expect(inngest.runs[0]?.responses.filter((status) => status === 206).length).toBeGreaterThan(0);
    expect(memories.map((memory) => memory.content).join(" ")).toMatch(/Lisbon/);

    // Everything is in Postgres, nothing in PGlite.
    expect(existsSync(dataDir)).toBe(false);
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query("SELECT status FROM memory_extractions");
    await client.end();
    expect(rows).toEqual([{ status: "succeeded" }]);
  });
});
