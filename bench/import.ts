/**
 * The import, measured through the real routes (`npm run bench -- --import`): a generated ChatGPT
 * export posted in the browser's batches, its job run by the embedded in-process runner, on PGlite
 * and on Postgres. Throughput on the offline model; against the strict OpenAI fake behind a fixed
 * latency, the model calls in flight against the configured per-user concurrency; the process's
 * RSS while each batch is posted; and POST /api/chat's first token while an import runs, beside idle.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client } from "pg";
import { importConfig } from "@/core/config";
import { type Database, type DbKind, openDatabase, setDatabase } from "@/db/client";
import { createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { packBatches } from "@/lib/import/batches";
import { parseConversationsJson } from "@/lib/import/read-export";
import { afterResponseIdle, detachedScheduler, setBackgroundScheduler } from "@/lib/jobs/after-response";
import { getInProcessImportRunner, getInProcessRunner } from "@/lib/runtime";
import { startStrictOpenAi } from "@/tests/contracts/openai-fake";
import { type HttpClient, registerAndSignIn } from "@/tests/http-client";
import { startTestServer } from "@/tests/http-server";
import { type ChatUser, timeChatTurn } from "./chat-turn";
import { generateChatGptExport } from "./chatgpt-export";
import { generateQuestions } from "./corpus";
import { type Latency, summarise } from "./stats";

/** The import target: first-token latency while an import runs stays within 1.5× of an idle server. */
export const FIRST_TOKEN_TARGET = 1.5;
/** One exchange at a time per user: the in-process runner's per-user lane, Inngest's `concurrency: {key: userId, limit: 1}`. */
export const CONFIGURED_PER_USER = 1;

export interface ImportBenchOptions {
  dbs: DbKind[];
  conversations: number;
  fakeConversations: number;
  latencyMs: number;
  idleTurns: number;
  out: string;
}

export function parseImportArgs(argv: readonly string[]): ImportBenchOptions {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dbs = (value("--db")?.split(",") as DbKind[] | undefined) ?? ["pglite", "postgres"];
  for (const db of dbs) if (db !== "postgres" && db !== "pglite") throw new Error(`--db: unknown database "${db}"`);
  return {
    dbs,
    conversations: Number(value("--conversations") ?? 200),
    fakeConversations: Number(value("--fake-conversations") ?? 30),
    latencyMs: Number(value("--latency-ms") ?? 100),
    idleTurns: Number(value("--idle-turns") ?? 20),
    out: value("--out") ?? path.join("bench", "results", "import"),
  };
}

interface BatchMemory {
  bytes: number;
  conversations: number;
  ms: number;
  /** The process's RSS after a GC before the batch, and its peak while the batch was posted. */
  rssBeforeMb: number;
  rssPeakMb: number;
}

interface ImportRun {
  conversations: number;
  exchanges: number;
  /** From the start request's answer to the job's end, as the server dated them. */
  ms: number;
  conversationsPerMinute: number;
  exchangesPerMinute: number;
  memoriesFound: number;
  failed: number;
}

interface ConcurrencyRun extends ImportRun {
  users: number;
  configured: number;
  /** Model requests in flight, averaged over the import's span, and the most at once. */
  achievedMean: number;
  achievedMax: number;
  modelRequests: number;
  /** At the configured concurrency and the fixed latency, with no other cost. */
  ceilingExchangesPerMinute: number;
}

interface ChatSide {
  idle: Latency;
  duringImport: Latency;
  ratioP50: number;
  ratioP95: number;
}

export interface ImportBenchResult {
  db: DbKind;
  offline: ImportRun & { batches: BatchMemory[]; exportBytes: number };
  chat: {
    importing: ChatSide;
    otherUser: ChatSide;
    importMs: number;
    /** The event loop's delay (p99, ms) while idle turns and while turns during the import ran. */
    eventLoopDelayP99: { idle: number; duringImport: number };
  };
  fake: { latencyMs: number; runs: ConcurrencyRun[] };
}

export interface ImportBenchReport {
  at: string;
  cpus: number;
  loadAverage: { start: number[]; end: number[] };
  target: number;
  results: ImportBenchResult[];
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A GC before each batch, so what a batch holds is not hidden by what an earlier one left for the collector. */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/** As often as Settings → Import asks for the progress. */
const POLL_MS = 1_500;

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function openImportDatabase(kind: DbKind): Promise<Database> {
  if (kind === "pglite") return openDatabase({ kind: "pglite", migrate: true });
  // A fresh database each run: the import itself is what is measured, nothing is cached.
  const name = "lifeline_importbench_run";
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return openDatabase({ kind: "postgres", url: url.toString(), migrate: true });
}

interface Progress {
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
  conversations: number;
  exchanges: { total: number; done: number; failed: number };
  memoriesFound: number;
}

async function expectOk(client: HttpClient, method: string, route: string, json?: unknown) {
  const res = await client.request(method, route, json === undefined ? {} : { json });
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.json as { import: Progress & { id: string } };
}

/** Creates the import and posts the export in the browser's batches, sampling the RSS during each. */
async function postExport(client: HttpClient, seed: number, count: number, gc?: () => void) {
  const generated = generateChatGptExport(seed, count);
  const text = JSON.stringify(generated.conversations);
  const parsed = parseConversationsJson(text, importConfig);
  const batches = packBatches(parsed.conversations, {
    maxBytes: importConfig.maxBatchBytes,
    maxConversations: importConfig.maxBatchConversations,
  });
  const { import: created } = await expectOk(client, "POST", "/api/imports", {
    source: "chatgpt",
    fileName: "conversations.json",
  });
  const memory: BatchMemory[] = [];
  for (const batch of batches) {
    const body = JSON.stringify({ conversations: batch });
    gc?.();
    const before = process.memoryUsage.rss();
    let peak = before;
    // Sampled whenever the event loop is free, i.e. between the server's awaits.
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 1);
    const started = performance.now();
    const res = await client.request("POST", `/api/imports/${created.id}/conversations`, {
      body,
      headers: { "content-type": "application/json" },
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    if (res.status !== 200) throw new Error(`batch: ${res.status} ${res.text.slice(0, 300)}`);
    memory.push({
      bytes: Buffer.byteLength(body),
      conversations: batch.length,
      ms: Math.round(performance.now() - started),
      rssBeforeMb: mb(before),
      rssPeakMb: mb(peak),
    });
  }
  return { importId: created.id, batches: memory, exportBytes: Buffer.byteLength(text), expected: generated.expected };
}

async function waitForImport(client: HttpClient, importId: string): Promise<Progress> {
  for (;;) {
    const { import: progress } = await expectOk(client, "GET", `/api/imports/${importId}`);
    if (progress.status !== "running") return progress;
    await sleep(POLL_MS);
  }
}

function importRun(progress: Progress): ImportRun {
  if (progress.status !== "done" || !progress.startedAt || !progress.finishedAt)
    throw new Error(`the import ended ${progress.status}`);
  const ms = Date.parse(progress.finishedAt) - Date.parse(progress.startedAt);
  const perMinute = (n: number) => round2((n * 60_000) / Math.max(1, ms));
  return {
    conversations: progress.conversations,
    exchanges: progress.exchanges.total,
    ms,
    conversationsPerMinute: perMinute(progress.conversations),
    exchangesPerMinute: perMinute(progress.exchanges.done),
    memoriesFound: progress.memoriesFound,
    failed: progress.exchanges.failed,
  };
}

/** Each turn's own background extraction finishes before the next, as between a real user's messages. */
async function turn(user: ChatUser, question: string): Promise<number> {
  const ms = await timeChatTurn(user.client.baseUrl, user, question);
  await afterResponseIdle();
  await getInProcessRunner().idle();
  return ms;
}

function side(idle: number[], during: number[]): ChatSide {
  const a = summarise(idle);
  const b = summarise(during);
  return { idle: a, duringImport: b, ratioP50: round2(b.p50 / a.p50), ratioP95: round2(b.p95 / a.p95) };
}

/**
 * Two users take turns in one chat each: the one whose import runs, and another. Idle turns come
 * before the import starts and after it ends, so drift over the run weighs on both sides alike.
 */
async function chatWhileImporting(
  importer: ChatUser & { client: HttpClient },
  other: ChatUser,
  options: ImportBenchOptions,
) {
  const questions = generateQuestions(11, 50);
  let q = 0;
  const idle = { importer: [] as number[], other: [] as number[] };
  const during = { importer: [] as number[], other: [] as number[] };
  const loopIdle = monitorEventLoopDelay({ resolution: 5 });
  const loopDuring = monitorEventLoopDelay({ resolution: 5 });
  const p99 = (h: ReturnType<typeof monitorEventLoopDelay>) => round2(h.percentile(99) / 1e6);
  const idleTurns = async (n: number) => {
    loopIdle.enable();
    for (let i = 0; i < n; i++) {
      idle.importer.push(await turn(importer, questions[q++ % questions.length] as string));
      idle.other.push(await turn(other, questions[q++ % questions.length] as string));
    }
    loopIdle.disable();
  };
  // Warm-up: the first turns pay for route compilation and caches.
  await turn(importer, "Hello");
  await turn(other, "Hello");
  await idleTurns(Math.ceil(options.idleTurns / 2));
  const posted = await postExport(importer.client, 2, options.conversations);
  await expectOk(importer.client, "POST", `/api/imports/${posted.importId}/start`);
  let running = true;
  loopDuring.enable();
  const finished = waitForImport(importer.client, posted.importId).finally(() => {
    running = false;
    loopDuring.disable();
  });
  while (running) {
    const a = await turn(importer, questions[q++ % questions.length] as string);
    if (running) during.importer.push(a);
    const b = await turn(other, questions[q++ % questions.length] as string);
    if (running) during.other.push(b);
  }
  const progress = await finished;
  await idleTurns(Math.floor(options.idleTurns / 2));
  return {
    importing: side(idle.importer, during.importer),
    otherUser: side(idle.other, during.other),
    importMs: importRun(progress).ms,
    eventLoopDelayP99: { idle: p99(loopIdle), duringImport: p99(loopDuring) },
  };
}

/** Between the server and the fake: holds each request `latencyMs`, and counts how many are in flight over time. */
async function latencyProxy(target: string, latencyMs: number) {
  let inFlight = 0;
  let max = 0;
  let requests = 0;
  let area = 0;
  let last = performance.now();
  const account = (delta: number) => {
    const now = performance.now();
    area += inFlight * (now - last);
    last = now;
    inFlight += delta;
    max = Math.max(max, inFlight);
  };
  const server: Server = createServer(async (req, res) => {
    account(1);
    requests++;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      await sleep(latencyMs);
      const upstream = await fetch(`${target}${(req.url ?? "").replace(/^\/v1/, "")}`, {
        method: req.method,
        headers: { "content-type": req.headers["content-type"] ?? "application/json" },
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    } finally {
      account(-1);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    /** Resets the counters; `stop()` returns what was measured since. */
    window() {
      account(0);
      area = 0;
      max = inFlight;
      requests = 0;
      const started = performance.now();
      return () => {
        account(0);
        return { mean: round2(area / Math.max(1, performance.now() - started)), max, requests };
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function againstFake(baseUrl: string, options: ImportBenchOptions): Promise<ConcurrencyRun[]> {
  const fake = await startStrictOpenAi();
  const proxy = await latencyProxy(fake.baseURL, options.latencyMs);
  setAiRegistry(createAiRegistry({ OPENAI_BASE_URL: proxy.url, LIFELINE_CHAT_MODELS: "gpt-4o-mini" }));
  const runs: ConcurrencyRun[] = [];
  try {
    for (const userCount of [1, 2]) {
      const users = await Promise.all(
        Array.from({ length: userCount }, (_, i) => registerAndSignIn(baseUrl, `import-fake-${userCount}-${i}`)),
      );
      const posted = await Promise.all(
        users.map((user, i) => postExport(user.client, 10 + userCount * 2 + i, options.fakeConversations)),
      );
      const stop = proxy.window();
      for (const [i, user] of users.entries())
        await expectOk(user.client, "POST", `/api/imports/${posted[i]?.importId}/start`);
      const ends = await Promise.all(users.map((user, i) => waitForImport(user.client, posted[i]?.importId as string)));
      const measured = stop();
      const each = ends.map(importRun);
      // Together: from the first start to the last end.
      const ms =
        Math.max(...ends.map((end) => Date.parse(end.finishedAt as string))) -
        Math.min(...ends.map((end) => Date.parse(end.startedAt as string)));
      const sum = (f: (run: ImportRun) => number) => each.reduce((n, run) => n + f(run), 0);
      const perMinute = (n: number) => round2((n * 60_000) / Math.max(1, ms));
      runs.push({
        users: userCount,
        configured: CONFIGURED_PER_USER * userCount,
        achievedMean: measured.mean,
        achievedMax: measured.max,
        modelRequests: measured.requests,
        conversations: sum((run) => run.conversations),
        exchanges: sum((run) => run.exchanges),
        ms,
        conversationsPerMinute: perMinute(sum((run) => run.conversations)),
        exchangesPerMinute: perMinute(sum((run) => run.exchanges)),
        memoriesFound: sum((run) => run.memoriesFound),
        failed: sum((run) => run.failed),
        ceilingExchangesPerMinute: Math.round((CONFIGURED_PER_USER * userCount * 60_000) / options.latencyMs),
      });
    }
  } finally {
    setAiRegistry(undefined);
    await proxy.close();
    await fake.close();
  }
  return runs;
}

async function benchDatabase(kind: DbKind, options: ImportBenchOptions, gc: () => void): Promise<ImportBenchResult> {
  const database = await openImportDatabase(kind);
  setDatabase(database);
  const server = await startTestServer({ database });
  try {
    console.error(`\n${kind}: ${options.conversations} conversations on the offline model…`);
    const alone = await registerAndSignIn(server.url, "import-alone");
    const posted = await postExport(alone.client, 1, options.conversations, gc);
    await expectOk(alone.client, "POST", `/api/imports/${posted.importId}/start`);
    const offline = importRun(await waitForImport(alone.client, posted.importId));

    console.error(`${kind}: chat turns idle and while an import of ${options.conversations} conversations runs…`);
    const importer = await registerAndSignIn(server.url, "import-chatting");
    const other = await registerAndSignIn(server.url, "import-other");
    const chat = await chatWhileImporting({ client: importer.client }, { client: other.client }, options);

    console.error(`${kind}: against the strict OpenAI fake at ${options.latencyMs} ms per call…`);
    const runs = await againstFake(server.url, options);
    return {
      db: kind,
      offline: { ...offline, batches: posted.batches, exportBytes: posted.exportBytes },
      chat,
      fake: { latencyMs: options.latencyMs, runs },
    };
  } finally {
    await getInProcessImportRunner().idle();
    await server.close();
    await database.close();
    setDatabase(undefined);
  }
}

const ms = (x: number) => `${x.toFixed(1)} ms`;
const verdict = (ratio: number) => (ratio <= FIRST_TOKEN_TARGET ? "met" : "MISSED");

export function formatImportTable(report: ImportBenchReport): string {
  const lines = [
    `import bench ${report.at}, ${report.cpus} CPUs, load average ${report.loadAverage.start.map((x) => x.toFixed(2)).join(" ")} at the start`,
  ];
  for (const r of report.results) {
    const o = r.offline;
    const peaks = o.batches.map((b) => b.rssPeakMb - b.rssBeforeMb);
    lines.push(
      `\n${r.db}`,
      `  offline model: ${o.conversations} conversations (${o.exchanges} exchanges, ${mb(o.exportBytes)} MB export) in ${(o.ms / 1000).toFixed(1)} s: ${o.conversationsPerMinute} conversations/min, ${o.exchangesPerMinute} exchanges/min, ${o.memoriesFound} memories, ${o.failed} failed`,
      `  RSS per batch (${o.batches.length} batches of ≤ ${Math.round(importConfig.maxBatchBytes / 1024)} KB): peak ${Math.max(...o.batches.map((b) => b.rssPeakMb))} MB, growth during a batch ≤ ${Math.max(...peaks).toFixed(1)} MB, before the first ${o.batches[0]?.rssBeforeMb} MB and the last ${o.batches.at(-1)?.rssBeforeMb} MB`,
      `  first token (POST /api/chat)     idle p50 / p95        during import p50 / p95   ratio p50  p95   target`,
    );
    for (const [label, s] of [
      ["the importing user", r.chat.importing],
      ["another user", r.chat.otherUser],
    ] as const) {
      lines.push(
        `    ${label.padEnd(28)} ${ms(s.idle.p50).padStart(9)} / ${ms(s.idle.p95).padEnd(9)} ${ms(s.duringImport.p50).padStart(9)} / ${ms(s.duringImport.p95).padEnd(9)}  (${s.duringImport.samples} turns)  ${`${s.ratioP50}×`.padStart(6)} ${`${s.ratioP95}×`.padStart(6)}  ≤ ${FIRST_TOKEN_TARGET}× ${verdict(Math.max(s.ratioP50, s.ratioP95))}`,
      );
    }
    lines.push(
      `    event loop delay p99: ${ms(r.chat.eventLoopDelayP99.idle)} idle, ${ms(r.chat.eventLoopDelayP99.duringImport)} during the import`,
    );
    for (const f of r.fake.runs) {
      lines.push(
        `  OpenAI fake at ${r.fake.latencyMs} ms, ${f.users} user${f.users > 1 ? "s" : ""} importing: model calls in flight mean ${f.achievedMean} (max ${f.achievedMax}) against ${f.configured} configured; ${f.conversationsPerMinute} conversations/min, ${f.exchangesPerMinute} exchanges/min of a ${f.ceilingExchangesPerMinute} ceiling`,
      );
    }
  }
  return lines.join("\n");
}

export async function runImportBench(argv: readonly string[]): Promise<number> {
  const options = parseImportArgs(argv);
  // Outside Next, after() has no request scope: tasks after a response run detached, as in the test harness.
  setBackgroundScheduler(detachedScheduler);
  const gc = collector();
  const at = new Date().toISOString();
  const start = loadavg();
  const results: ImportBenchResult[] = [];
  for (const kind of options.dbs) results.push(await benchDatabase(kind, options, gc));
  const report: ImportBenchReport = {
    at,
    cpus: cpus().length,
    loadAverage: { start: start.map(round2), end: loadavg().map(round2) },
    target: FIRST_TOKEN_TARGET,
    results,
  };
  await mkdir(path.dirname(options.out), { recursive: true });
  await writeFile(`${options.out}.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.log(formatImportTable(report));
  console.log(`\nwritten: ${options.out}.json`);
  return 0;
}
