/**
 * The fault suite: a real Lifeline server in a child process is killed (SIGKILL: no shutdown
 * code runs) at each stage of a chat turn — before the model is called, mid-stream, and after the
 * answer while its memory extraction runs — and a new process is started on the same data, on
 * PGlite and on Postgres. Afterwards: no message is lost, none is left `streaming`, every
 * extraction is terminal, and every answer has its debug record. And killed while several turns
 * finish at once, at the injected crash point between "answer final" and "extraction handed to its
 * runner" (LIFELINE_FAULT, core/faults.ts): after a restart every complete or interrupted answer
 * has a terminal extraction, and every complete answer's conversation its title, within the
 * sweeps' bound.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerConfig, DEFAULT_CONVERSATION_TITLE, extractionConfig, titleConfig } from "@/core/config";
import { createPgliteTestDataDir, createPostgresTestDatabaseUrl, DB_KINDS } from "@/tests/db";
import { HttpClient, registerAndSignIn } from "@/tests/http-client";
import { type FakeOpenAi, HOLD_EMBEDDING, HOLD_EXTRACTION, HOLD_MID_STREAM, startFakeOpenAi } from "./fake-openai";

const ROOT = path.resolve(__dirname, "../..");

interface ServerProcess {
  url: string;
  child: ChildProcess;
  kill(): Promise<void>;
  /** Resolves with the signal that ended the process (null: it exited by itself). */
  exited: Promise<NodeJS.Signals | null>;
}

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/faults/server-process.ts"], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "error", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${stderr}`)), 90_000);
    child.stdout?.on("data", (data: Buffer) => {
      stdout += data.toString();
      const ready = /READY (\S+)/.exec(stdout);
      if (ready?.[1]) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before it was ready:\n${stderr}`));
    });
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.signalCode);
    child.once("exit", (_code, signal) => resolve(signal));
  });
  return {
    url,
    child,
    exited,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

/** The same browser (its session cookie) pointed at another server process. */
function sameUser(client: HttpClient, url: string): HttpClient {
  const next = new HttpClient(url);
  for (const [name, value] of client.cookies) next.cookies.set(name, value);
  return next;
}

/** Starts a chat turn and leaves it running (the server is killed under it). */
function startTurn(client: HttpClient, message: string): void {
  void fetch(new URL("/api/chat", client.baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json", cookie: client.cookieHeader() },
    body: JSON.stringify({ message: { text: message } }),
  })
    .then((response) => response.text())
    .catch(() => {});
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}

describe.each(DB_KINDS)("a server killed mid-turn and restarted, on %s", (kind) => {
  let fake: FakeOpenAi;
  let postgres: { url: string; drop(): Promise<void> } | undefined;
  let dataDir: string | undefined;
  let env: Record<string, string>;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    env = {
      AUTH_SECRET: "fault-suite-secret-0123456789abcdef",
      OPENAI_BASE_URL: fake.baseURL,
      LIFELINE_CHAT_MODELS: "fake-chat",
      LIFELINE_EMBEDDING_MODEL: "fake-embedding",
      LIFELINE_CHAT_RATE_LIMIT: "off",
    };
    // A fresh, migrated database (a copy of the run's template: an on-disk PGlite's initdb alone
    // costs a child ~15 s of CPU); the child processes open it and check its migrations.
    if (kind === "pglite") {
      dataDir = mkdtempSync(path.join(tmpdir(), "lifeline-faults-"));
      env.LIFELINE_DATA_DIR = path.join(dataDir, "pglite");
      await (await createPgliteTestDataDir(env.LIFELINE_DATA_DIR)).close();
    } else {
      postgres = await createPostgresTestDatabaseUrl({ migrated: true });
      env.DATABASE_URL = postgres.url;
    }
  });

  afterAll(async () => {
    await server?.kill();
    await fake?.close();
    await postgres?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("loses nothing and leaves nothing streaming, pending or unexplained", async () => {
    // 1. Killed before the model is called: the message's embedding is held.
    server = await startServer(env);
    const user = await registerAndSignIn(server.url, "fault");
    startTurn(user.client, `${HOLD_EMBEDDING}: my favourite tea is sencha`);
    await fake.heldOn(HOLD_EMBEDDING);
    // The turn embeds the message while it writes the message and its answer row (chat/turn.ts):
    // killed once those rows are stored, with the embedding still in flight.
    await waitFor("the question and its answer row stored", async () => {
      const list = await user.client.request("GET", "/api/conversations");
      const [latest] = (list.json as { conversations: { id: string }[] }).conversations;
      const res = await user.client.request("GET", `/api/conversations/${latest?.id}/messages`);
      const messages = (res.json as { messages: { role: string }[] }).messages;
      return messages.some((m) => m.role === "assistant") ? true : undefined;
    });
    await server.kill();

    // 2. Killed mid-stream: the model sent part of its answer and went quiet.
    server = await startServer(env);
    const streaming = sameUser(user.client, server.url);
    startTurn(streaming, `${HOLD_MID_STREAM}: I live in Porto`);
    await fake.heldOn(HOLD_MID_STREAM);
    // The answer's progress is saved while it streams: wait until the partial text is stored.
    await waitFor("the partial answer saved", async () => {
      const list = await streaming.request("GET", "/api/conversations");
      const [latest] = (list.json as { conversations: { id: string }[] }).conversations;
      const res = await streaming.request("GET", `/api/conversations/${latest?.id}/messages`);
      const messages = (res.json as { messages: { role: string; status: string; content: string }[] }).messages;
      return messages.some((m) => m.role === "assistant" && m.status === "streaming" && m.content.includes("reached"))
        ? true
        : undefined;
    });
    await server.kill();

    // 3. Killed after the answer, while its memory extraction runs.
    server = await startServer(env);
    startTurn(sameUser(user.client, server.url), `${HOLD_EXTRACTION}: I am learning the cello`);
    await fake.heldOn(HOLD_EXTRACTION);
    await server.kill();

    // A new process, told to count a second of silence as an interruption; the model answers again.
    fake.release(HOLD_EMBEDDING);
    fake.release(HOLD_MID_STREAM);
    fake.release(HOLD_EXTRACTION);
    server = await startServer({ ...env, LIFELINE_INTERRUPTED_AFTER_MS: "1000" });
    const client = sameUser(user.client, server.url);

    const conversations = await waitFor("three conversations", async () => {
      const res = await client.request("GET", "/api/conversations");
      const list = (res.json as { conversations: { id: string }[] }).conversations;
      return list.length === 3 ? list : undefined;
    });

    type Item = {
      id: string;
      role: string;
      content: string;
      status: string;
      error: string | null;
      extraction: { status: string } | null;
    };
    const settled = await waitFor("every answer settled and every extraction terminal", async () => {
      const transcripts = await Promise.all(
        conversations.map(async ({ id }) => {
          const res = await client.request("GET", `/api/conversations/${id}/messages`);
          return (res.json as { messages: Item[] }).messages;
        }),
      );
      const all = transcripts.flat();
      const answers = all.filter((m) => m.role === "assistant");
      const done =
        answers.length === 3 &&
        answers.every((m) => m.status !== "streaming") &&
        answers.every((m) => m.extraction && ["succeeded", "failed", "skipped"].includes(m.extraction.status));
      return done ? all : undefined;
    });

    // No message lost: the three questions and an answer to each.
    const questions = settled.filter((m) => m.role === "user").map((m) => m.content);
    expect(questions.sort()).toEqual(
      [
        `${HOLD_EMBEDDING}: my favourite tea is sencha`,
        `${HOLD_EXTRACTION}: I am learning the cello`,
        `${HOLD_MID_STREAM}: I live in Porto`,
      ].sort(),
    );
    const answers = settled.filter((m) => m.role === "assistant");
    const byQuestion = (marker: string) => {
      const conversation = settled.find((m) => m.role === "user" && m.content.startsWith(marker));
      const index = settled.indexOf(conversation as Item);
      return settled[index + 1] as Item;
    };
    // Before the model: interrupted, nothing written. Mid-stream: interrupted, the partial text kept.
    expect(byQuestion(HOLD_EMBEDDING)).toMatchObject({ status: "error", content: "" });
    expect(byQuestion(HOLD_EMBEDDING).error).toMatch(/interrupted/);
    expect(byQuestion(HOLD_MID_STREAM)).toMatchObject({ status: "error" });
    expect(byQuestion(HOLD_MID_STREAM).content).toContain("Partial words");
    expect(byQuestion(HOLD_EXTRACTION)).toMatchObject({ status: "complete" });
    expect(byQuestion(HOLD_EXTRACTION).content).toContain("and the answer ends.");
    for (const answer of answers) expect(answer.extraction?.status).toBe("succeeded");

    // Every answer has its debug record; the interrupted ones say so, and what the model received.
    const records = await Promise.all(
      answers.map(async (answer) => {
        const res = await client.request("GET", `/api/messages/${answer.id}/debug`);
        expect(res.status).toBe(200);
        return { answer, debug: (res.json as { debug: { finishReason: string | null; modelInput: unknown[] } }).debug };
      }),
    );
    for (const { answer, debug } of records) {
      if (answer.id === byQuestion(HOLD_EMBEDDING).id) {
        expect(debug).toMatchObject({ finishReason: "interrupted", modelInput: [] });
      } else if (answer.id === byQuestion(HOLD_MID_STREAM).id) {
        expect(debug.finishReason).toBe("interrupted");
        expect(JSON.stringify(debug.modelInput)).toContain("I live in Porto");
      } else {
        expect(debug.finishReason).toBe("stop");
      }
    }
    // Four child servers in a row, each starting up: minutes on a loaded 2-core machine.
  }, 240_000);

  it("kill -9 while turns finish concurrently: every complete or interrupted answer gets a terminal extraction after the restart", async () => {
    // The crash point: the first answer saved as final kills the server before its extraction is
    // handed over; the other turns are wherever they are at that instant.
    await server?.kill();
    server = await startServer({ ...env, LIFELINE_FAULT: "crash-after-answer-final" });
    const crashing = server;
    const users = await Promise.all([
      registerAndSignIn(crashing.url, "crash-a"),
      registerAndSignIn(crashing.url, "crash-b"),
    ]);
    const TURNS_PER_USER = 3;
    for (const user of users) {
      for (let turn = 0; turn < TURNS_PER_USER; turn++)
        startTurn(user.client, `turn ${turn}: I collect stamps from ${user.name}`);
    }
    expect(await crashing.exited).toBe("SIGKILL");

    server = await startServer({ ...env, LIFELINE_INTERRUPTED_AFTER_MS: "1000" });
    const clients = users.map((user) => sameUser(user.client, server?.url ?? ""));
    type Item = { role: string; status: string; error: string | null; extraction: { status: string } | null };
    const readAnswers = async () => {
      const perUser = await Promise.all(
        clients.map(async (client) => {
          const list = await client.request("GET", "/api/conversations");
          const conversations = (list.json as { conversations: { id: string; title: string }[] }).conversations;
          const transcripts = await Promise.all(
            conversations.map(async ({ id, title }) => {
              const res = await client.request("GET", `/api/conversations/${id}/messages`);
              return (res.json as { messages: Item[] }).messages.map((m) => ({ ...m, title }));
            }),
          );
          return transcripts.flat().filter((m) => m.role === "assistant");
        }),
      );
      return perUser.flat();
    };
    const terminal = ["succeeded", "failed", "skipped"];
    // Within the sweeps' bound: an answer left `streaming` counts as interrupted after a second, and
    // a queued extraction nobody handed over is handed over by the first sweep after it is older
    // than extractionConfig.redispatchAfterMs (this in-process runner also resumes it at start), and
    // a title job nobody ran by the first sweep after titleConfig.retryAfterMs.
    const answers = await waitFor(
      "every complete or interrupted answer with a terminal extraction",
      async () => {
        const all = await readAnswers();
        const settled =
          all.every((m) => m.status !== "streaming") &&
          all.every((m) => m.extraction !== null && terminal.includes(m.extraction.status)) &&
          // A complete answer's conversation is titled (its title job commits with the answer too).
          all.every((m) => m.status !== "complete" || m.title !== DEFAULT_CONVERSATION_TITLE);
        if (settled) return all;
        // Not yet: what is still open, for the timeout's message.
        const open = all.filter(
          (m) =>
            m.status === "streaming" ||
            !m.extraction ||
            !terminal.includes(m.extraction.status) ||
            (m.status === "complete" && m.title === DEFAULT_CONVERSATION_TITLE),
        );
        throw new Error(
          JSON.stringify(
            open.map((m) => ({ status: m.status, extraction: m.extraction?.status ?? null, title: m.title })),
          ),
        );
      },
      Math.max(extractionConfig.redispatchAfterMs, titleConfig.retryAfterMs) + answerConfig.sweepIntervalMs,
    );
    // The crash point was reached: at least one answer was final before the kill.
    expect(answers.filter((m) => m.status === "complete").length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) {
      expect(["complete", "error"]).toContain(answer.status);
      if (answer.status === "error") expect(answer.error).toMatch(/interrupted/);
      expect(answer.extraction?.status).toBe("succeeded");
    }
  }, 240_000);
});
