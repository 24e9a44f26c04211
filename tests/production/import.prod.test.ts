/**
 * An import as a deployment runs it: `next start` on Postgres with Inngest "Cloud" (the stand-in of
 * fake-inngest.ts, signing its calls as Inngest does). The browser's part is played over HTTP: the
 * import is created, its batches sent and started; the stand-in receives `lifeline/import.requested`
 * and drives `run-import` step by step until the import is done, and pause and resume go through it.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readExport } from "@/lib/import/read-export";
import { createPostgresTestDatabaseUrl } from "../db";
import { registerAndSignIn } from "../http-client";
import { type FakeInngest, type FakeInngestRun, startFakeInngest } from "./fake-inngest";
import { type NextServer, startNextServer } from "./next-server";

const run = promisify(execFile);
const SIGNING_KEY = `signkey-prod-${"ef56".repeat(16)}`;
const IMPORT_EVENT = "lifeline/import.requested";
const exported = readExport(readFileSync(path.join(process.cwd(), "lib/import/fixtures/chatgpt-conversations.json")));

interface Progress {
  status: string;
  keepConversations: boolean;
  conversations: number;
  exchanges: { total: number; done: number; failed: number };
  memoriesFound: number;
}

async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("production import: next start on Postgres, each exchange run by Inngest's run-import", () => {
  let database: { url: string; drop(): Promise<void> };
  let inngest: FakeInngest;
  let server: NextServer;
  /** Imports whose next run is held before its third call (after its first exchange), until released. */
  const holds = new Map<string, { held: () => void; release: Promise<void> }>();

  beforeAll(async () => {
    database = await createPostgresTestDatabaseUrl();
    await run(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "db/migrate.ts", "--build"], {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATABASE_URL: database.url, LOG_LEVEL: "warn" },
    });
    let appUrl = "";
    inngest = await startFakeInngest({
      signingKey: SIGNING_KEY,
      functionIds: { [IMPORT_EVENT]: "lifeline-run-import" },
      appUrl: () => appUrl,
      beforeCall: async (run, call) => {
        const hold = holds.get(importIdOf(run));
        if (!hold || call !== 2) return;
        holds.delete(importIdOf(run));
        hold.held();
        await hold.release;
      },
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
      LIFELINE_OFFLINE_DELAY_MS: "0",
      LOG_LEVEL: "warn",
    });
    appUrl = server.url;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await inngest?.close();
    await database?.drop();
  });

  const importIdOf = (run: FakeInngestRun) => String((run.event.data as { importId?: unknown }).importId);
  const runsOf = (importId: string) =>
    inngest.runs.filter((run) => run.event.name === IMPORT_EVENT && importIdOf(run) === importId);
  const finished = (importId: string, count: number) =>
    until(
      () => runsOf(importId),
      (runs) => runs.length >= count && runs.every((run) => run.status !== "running"),
      `${count} finished run(s) of import ${importId}`,
    );

  async function createAndSend(label: string, json: Record<string, unknown>) {
    const user = await registerAndSignIn(server.url, label);
    const created = await user.client.request("POST", "/api/imports", {
      json: { source: "chatgpt", fileName: "conversations.json", ...json },
    });
    expect(created.status).toBe(201);
    const importId = (created.json as { import: { id: string } }).import.id;
    // One conversation a batch, as the browser sends them in several.
    for (const conversation of exported.conversations) {
      const batch = await user.client.request("POST", `/api/imports/${importId}/conversations`, {
        json: { conversations: [conversation] },
      });
      expect(batch.status).toBe(200);
    }
    const progress = async () =>
      ((await user.client.request("GET", `/api/imports/${importId}`)).json as { import: Progress }).import;
    return { user, importId, progress };
  }

  it("creates, sends and starts an import; Inngest runs every exchange and the import is done with its memories", async () => {
    const { user, importId, progress } = await createAndSend("prod-import", {});
    const started = await user.client.request("POST", `/api/imports/${importId}/start`);
    expect(started.status).toBe(200);
    expect((started.json as { import: Progress }).import.status).toBe("running");

    const [only] = await finished(importId, 1);
    expect({ status: only?.status, error: only?.error, output: only?.output }).toEqual({
      status: "completed",
      error: undefined,
      output: { importId, status: "done", ran: 3 },
    });
    expect(only?.responses.filter((status) => status === 206).length).toBeGreaterThan(3);
    expect(only?.event.data).toEqual({ importId, userId: user.id });

    const done = await progress();
    expect(done).toMatchObject({
      status: "done",
      keepConversations: true,
      conversations: 2,
      exchanges: { total: 3, done: 3, failed: 0 },
    });
    const { memories } = (await user.client.request("GET", "/api/memories")).json as {
      memories: { content: string; provenance: string; sourceConversationId: string | null }[];
    };
    expect(memories.length).toBe(done.memoriesFound);
    const lisbon = memories.find((memory) => /Lisbon/.test(memory.content));
    expect(lisbon).toMatchObject({ provenance: "user_stated" });
    expect(lisbon?.sourceConversationId).toBeTruthy();

    const client = new Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query(
      "SELECT status, runner, count(*)::int AS n FROM memory_extractions WHERE import_id = $1 GROUP BY 1, 2",
      [importId],
    );
    await client.end();
    expect(rows).toEqual([{ status: "succeeded", runner: "inngest", n: 3 }]);
  });

  it("pauses after the exchange in hand and resumes in a new run; an import not kept ends with no conversations", async () => {
    const { user, importId, progress } = await createAndSend("prod-import-pause", { keepConversations: false });
    let held = () => {};
    const isHeld = new Promise<void>((resolve) => {
      held = resolve;
    });
    let release = () => {};
    holds.set(importId, {
      held,
      release: new Promise<void>((resolve) => {
        release = resolve;
      }),
    });
    expect((await user.client.request("POST", `/api/imports/${importId}/start`)).status).toBe(200);
    await isHeld;
    const paused = await user.client.request("POST", `/api/imports/${importId}/pause`);
    expect(paused.status).toBe(200);
    expect((paused.json as { import: Progress }).import).toMatchObject({
      status: "paused",
      exchanges: { total: 3, done: 1 },
    });
    release();
    const [first] = await finished(importId, 1);
    expect({ status: first?.status, output: first?.output }).toEqual({
      status: "completed",
      output: { importId, status: "not-running", ran: 1 },
    });
    expect(await progress()).toMatchObject({ status: "paused", exchanges: { total: 3, done: 1 } });

    const resumed = await user.client.request("POST", `/api/imports/${importId}/resume`);
    expect(resumed.status).toBe(200);
    const runs = await finished(importId, 2);
    expect({ status: runs[1]?.status, output: runs[1]?.output }).toEqual({
      status: "completed",
      output: { importId, status: "done", ran: 2 },
    });
    const done = await progress();
    expect(done).toMatchObject({
      status: "done",
      keepConversations: false,
      conversations: 2,
      exchanges: { total: 3, done: 3, failed: 0 },
    });
    const chats = (await user.client.request("GET", "/api/conversations?archived=true")).json as {
      conversations: unknown[];
    };
    expect(chats.conversations).toEqual([]);
    const { memories } = (await user.client.request("GET", "/api/memories")).json as {
      memories: { content: string; importedSource: { from: string; conversationTitle: string } | null }[];
    };
    expect(memories.length).toBe(done.memoriesFound);
    expect(memories.find((memory) => /Lisbon/.test(memory.content))?.importedSource).toMatchObject({
      from: "chatgpt",
      conversationTitle: "Commuting by bike",
    });
  });
});
