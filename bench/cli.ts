/** Every contender side by side in one run: the machine is noisy, so only ratios measured together mean anything. */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { Client } from "pg";
import { approximateRetrievalConfig } from "@/core/config";
import { logger } from "@/core/logger";
import { type Database, type DbKind, openDatabase, selectRows, setDatabase } from "@/db/client";
import { halfvecValue } from "@/db/queries/vectors";
import { progressBar } from "@/eval/progress";
import { createAiRegistry } from "@/lib/ai/registry";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import { CODE_INDEX, hammingNearest } from "@/lib/memory/retrieval/retrieve";
import { getInProcessRunner } from "@/lib/runtime";
import { HttpClient } from "@/tests/http-client";
import { startTestServer } from "@/tests/http-server";
import { type ChatUser, sendChatTurn, timeChatTurn } from "./chat-turn";
import { generateQuestions } from "./corpus";
import { denseEmbedder } from "./dense-embedder";
import { formatHealthUnderLoad, type HealthUnderLoad, healthUnderLoad } from "./event-loop";
import { runImportBench } from "./import";
import { insertCost, statsWriteCost } from "./inserts";
import { type Agreement, type BenchReport, type BenchResult, formatTable, svgChart } from "./report";
import {
  type Answer,
  agreement,
  type Contender,
  distancePass,
  floorPass,
  HNSW_INDEXES,
  hnswStatement,
  inAppBaseline,
  type Question,
  type RetrievalContext,
  statement,
} from "./retrieval";
import { buildHnswIndexes, OTHER_USERS, seedMemories } from "./seed";
import { summarise } from "./stats";
import { captureTurnSpans } from "./turn-spans";

/** Bump when the corpus or the seeding changes: cached Postgres databases are then re-seeded. */
const CORPUS_VERSION = 2;
const PASSWORD = "bench-password-correct-horse";

export interface BenchOptions {
  dbs: DbKind[];
  sizes: Record<DbKind, number[]>;
  questions: number;
  rounds: number;
  chat: boolean;
  chatSizes: number[];
  /** Postgres sizes at which the HNSW contenders' indexes are built and measured (with the insert costs). */
  hnswSizes: number[];
  /** Further values of K measured as contenders `two-stage-K` beside the configured one. */
  k: number[];
  retrieval: boolean;
  skip: string[];
  healthLoad: boolean;
  healthLoadOnly: boolean;
  concurrentUsers: number;
  others: number;
  embedder: "configured" | "dense";
  out: string;
}

/** Every option of the retrieval bench, and whether it takes a value (`--import` runs bench/import.ts, with its own). */
const OPTIONS: Readonly<Record<string, "flag" | "value">> = {
  "--quick": "flag",
  "--db": "value",
  "--sizes": "value",
  "--questions": "value",
  "--rounds": "value",
  "--no-chat": "flag",
  "--no-health-load": "flag",
  "--health-load-only": "flag",
  "--chat-sizes": "value",
  "--hnsw-sizes": "value",
  "--k": "value",
  "--no-retrieval": "flag",
  "--skip": "value",
  "--others": "value",
  "--embedder": "value",
  "--out": "value",
};

export const USAGE = `usage: npm run bench -- ${Object.entries(OPTIONS)
  .map(([name, kind]) => (kind === "value" ? `[${name} …]` : `[${name}]`))
  .join(" ")}
       npm run bench -- --import …   (bench/import.ts)
What each option measures: docs/performance.md.`;

export function parseArgs(argv: readonly string[], now = new Date()): BenchOptions {
  // An option misspelt would otherwise run the whole default bench (seeding 100k memories) instead of what was asked.
  for (let i = 0; i < argv.length && !argv.includes("--import"); i++) {
    const kind = OPTIONS[argv[i] as string];
    if (!kind) throw new Error(`unknown option "${argv[i]}"\n${USAGE}`);
    if (kind === "value") i++;
  }
  // Read only through these, so an option read here and missing from OPTIONS fails every parse, not just its own.
  const declared = (flag: string, kind: "flag" | "value") => {
    if (OPTIONS[flag] !== kind) throw new Error(`bench: ${flag} is read as a ${kind} but OPTIONS does not say so`);
    return flag;
  };
  const has = (flag: string) => argv.includes(declared(flag, "flag"));
  const quick = has("--quick");
  const value = (flag: string) => {
    const i = argv.indexOf(declared(flag, "value"));
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const numbers = (text: string | undefined) =>
    text
      ?.split(",")
      .map((x) => Number(x.replace(/k$/i, "000")))
      .filter((x) => Number.isInteger(x) && x > 0);
  const dbs = (value("--db")?.split(",") as DbKind[] | undefined) ?? ["postgres", "pglite"];
  for (const db of dbs) if (db !== "postgres" && db !== "pglite") throw new Error(`--db: unknown database "${db}"`);
  const sizes = numbers(value("--sizes"));
  return {
    dbs,
    sizes: {
      postgres: sizes ?? (quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]),
      pglite: sizes?.filter((n) => n <= 10_000) ?? (quick ? [1_000] : [1_000, 10_000]),
    },
    questions: Number(value("--questions") ?? (quick ? 50 : 200)),
    rounds: Number(value("--rounds") ?? (quick ? 1 : 2)),
    chat: !has("--no-chat"),
    healthLoad: !has("--no-health-load"),
    healthLoadOnly: has("--health-load-only"),
    chatSizes: numbers(value("--chat-sizes")) ?? (quick ? [1_000] : [1_000, 10_000]),
    hnswSizes: numbers(value("--hnsw-sizes")) ?? (quick ? [] : [10_000]),
    k: numbers(value("--k")) ?? [],
    retrieval: !has("--no-retrieval"),
    skip: value("--skip")?.split(",") ?? [],
    concurrentUsers: OTHER_USERS,
    others: Number(value("--others") ?? OTHER_USERS),
    embedder: value("--embedder") === "dense" ? "dense" : "configured",
    out: value("--out") ?? path.join("bench", "results", now.toISOString().replace(/[:.]/g, "-")),
  };
}

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function admin<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

async function openBenchDatabase(kind: DbKind, size: number, embedderId: string, others: number): Promise<Database> {
  if (kind === "pglite") return openDatabase({ kind: "pglite", migrate: true });
  const suffix = others === OTHER_USERS ? "" : `_o${others}`;
  const name = `lifeline_bench_${size}_${embedderId.replace(/\W+/g, "_")}${suffix}`.toLowerCase();
  const exists = await admin("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  if (exists.length === 0) await admin(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return openDatabase({ kind: "postgres", url: url.toString(), migrate: true, max: OTHER_USERS + 4 });
}

interface Seeded {
  userId: string;
  users: ChatUser[];
}

async function prepare(
  database: Database,
  baseUrl: string,
  size: number,
  embedder: ReturnType<typeof createAiRegistry>["embedder"],
  now: Date,
  others: number,
): Promise<Seeded> {
  const { db } = database;
  await db.execute(sql`CREATE TABLE IF NOT EXISTS bench_meta (key text PRIMARY KEY, value text NOT NULL)`);
  const key = `seeded:${CORPUS_VERSION}:${size}:${embedder.model}`;
  const [done] = await selectRows<{ value: string }>(db, sql`SELECT value FROM bench_meta WHERE key = ${key}`);
  const emails = Array.from({ length: others + 1 }, (_, i) => `bench-${i}@example.com`);
  if (done) {
    const ids = JSON.parse(done.value) as string[];
    const users = await Promise.all(
      emails.map(async (email) => {
        const client = new HttpClient(baseUrl);
        const signedIn = await client.signIn(email, PASSWORD);
        if (!signedIn.ok)
          throw new Error(`bench: cannot sign in ${email} (${signedIn.location}); drop the bench database`);
        return { client };
      }),
    );
    await vacuumMemories(db);
    return { userId: ids[0] as string, users };
  }
  await db.execute(sql`DELETE FROM users WHERE email LIKE 'bench-%@example.com'`);
  const registered = [];
  for (const email of emails) {
    const client = new HttpClient(baseUrl);
    const res = await client.request("POST", "/api/auth/register", {
      json: { email, password: PASSWORD, name: "Bench" },
    });
    if (res.status !== 201) throw new Error(`bench: register ${email}: ${res.status} ${res.text}`);
    const signedIn = await client.signIn(email, PASSWORD);
    if (!signedIn.ok) throw new Error(`bench: sign-in ${email} failed`);
    registered.push({ id: (res.json as { user: { id: string } }).user.id, client });
  }
  const [measured, ...otherUsers] = registered;
  if (!measured) throw new Error("bench: no user");
  const progress = progressBar();
  await seedMemories(
    database,
    { userId: measured.id, others: otherUsers.map((user) => user.id), count: size, seed: size, embedder, now },
    progress,
  );
  progress.done();
  await db.execute(
    sql`INSERT INTO bench_meta (key, value) VALUES (${key}, ${JSON.stringify(registered.map((user) => user.id))})`,
  );
  await vacuumMemories(db);
  return { userId: measured.id, users: registered.map(({ client }) => ({ client })) };
}

/** Dead row versions and pending full-text entries would otherwise be measured too, and vary with autovacuum. */
async function vacuumMemories(db: Database["db"]): Promise<void> {
  await db.execute(sql`VACUUM (ANALYZE) memories`);
}

async function timeContenders(
  context: RetrievalContext,
  questions: Question[],
  rounds: number,
  contenders: Record<string, Contender>,
): Promise<{ latency: BenchResult["latency"]; tops: Map<string, Answer[]> }> {
  const samples = new Map<string, number[]>(Object.keys(contenders).map((name) => [name, []]));
  const tops = new Map<string, Answer[]>(Object.keys(contenders).map((name) => [name, []]));
  const progress = progressBar();
  progress.start(questions.length * rounds * Object.keys(contenders).length, "retrieval");
  // Warm-up: the first calls pay for plans, caches and JIT.
  for (const contender of Object.values(contenders)) for (const q of questions.slice(0, 3)) await contender(context, q);
  for (let round = 0; round < rounds; round++) {
    for (const question of questions) {
      // Interleaved: each question runs every contender back to back, so noise hits them alike.
      for (const [name, contender] of Object.entries(contenders)) {
        const started = performance.now();
        const top = await contender(context, question);
        samples.get(name)?.push(performance.now() - started);
        if (round === 0) tops.get(name)?.push(top);
        progress.tick(1);
      }
    }
  }
  progress.done();
  return {
    latency: Object.fromEntries([...samples].map(([name, values]) => [name, summarise(values)])),
    tops,
  };
}

async function writeReport(out: string, report: BenchReport): Promise<void> {
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(`${out}.json`, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(`${out}.svg`, svgChart(report));
}

const mean = (values: readonly number[]) =>
  Math.round((values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)) * 1000) / 1000;

/** [reference, contender]: top 5 and recall@5 of each candidate pass against the exact statement. */
function agreeing(k: readonly number[]): (readonly [string, string])[] {
  return [
    ["in-app", "weighted"],
    ["exact", "hybrid"],
    ["exact", "two-stage"],
    ...k.map((value) => ["exact", `two-stage-${value}`] as const),
    ...HNSW_INDEXES.map(({ name }) => ["exact", contenderName(name)] as const),
  ];
}

function agreementOf(tops: Map<string, Answer[]>, reference: string, contender: string): Agreement {
  const expected = tops.get(reference) ?? [];
  const answers = tops.get(contender) ?? [];
  const compared = answers.map((answer, i) => agreement(expected[i]?.top ?? [], answer.top));
  return {
    reference,
    contender,
    same: mean(compared.map((a) => Number(a.same))),
    recall: mean(compared.map((a) => a.recall)),
    candidatePass: mean(answers.map((answer) => Number(answer.path === "two-stage" || answer.path === "hnsw"))),
    fallbacks: answers.filter((answer) => answer.fellBack).length,
    answers: answers.length,
  };
}

const contenderName = (index: string) => index.replace(/^bench_/, "").replace("_", "-");

/** The first stage's plan as the planner runs it here: an index-only scan reads no 3 KB row (Heap Fetches). */
async function firstStagePlan({ db, userId, embeddingModel }: RetrievalContext, question: Question): Promise<string> {
  const vector = halfvecValue(question.embedding);
  const rows = await selectRows<{ "QUERY PLAN": string }>(
    db,
    sql`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${hammingNearest(userId, embeddingModel, vector, approximateRetrievalConfig.candidates)}`,
  );
  return rows
    .map((row) => row["QUERY PLAN"])
    .filter((line) => !line.includes("Sort Key"))
    .join("\n");
}

/** What is timed is the turn alone: its background extraction finishes first, as between a real user's messages. */
async function settle(): Promise<void> {
  await afterResponseIdle();
  await getInProcessRunner().idle();
}

async function timeChat(baseUrl: string, users: ChatUser[], questions: string[], concurrent: number) {
  const [measured] = users;
  if (!measured) throw new Error("bench: no user");
  const alone: number[] = [];
  const toModel: number[] = [];
  const writes: number[] = [];
  const spans = captureTurnSpans();
  try {
    for (const question of questions) {
      const { sentAt, firstTokenMs } = await sendChatTurn(baseUrl, measured, question);
      alone.push(firstTokenMs);
      await settle();
      const turn = spans.take();
      if (turn.modelCalledAt === null) throw new Error("bench: a chat turn called no model");
      toModel.push(turn.modelCalledAt - sentAt);
      writes.push(turn.writesMs);
    }
  } finally {
    await spans.stop();
  }
  const together: number[] = [];
  const group = users.slice(0, concurrent);
  for (let i = 0; i < Math.max(1, Math.floor(questions.length / 5)); i++) {
    const times = await Promise.all(
      group.map((user, j) => timeChatTurn(baseUrl, user, questions[(i + j) % questions.length] as string)),
    );
    together.push(...times);
    await settle();
  }
  return {
    toModel: summarise(toModel),
    alone: summarise(alone),
    writes: summarise(writes),
    concurrent: summarise(together),
    concurrentUsers: group.length,
  };
}

export async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(USAGE);
    return 0;
  }
  let options: BenchOptions;
  try {
    options = parseArgs(argv);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  // No pacing of the offline model, no limits on its users, cheap hashes.
  Object.assign(process.env, {
    LIFELINE_OFFLINE_DELAY_MS: "0",
    LIFELINE_CHAT_RATE_LIMIT: "off",
    LIFELINE_REGISTER_RATE_LIMIT: "off",
    LIFELINE_SIGNIN_RATE_LIMIT: "off",
    LIFELINE_SIGNIN_IP_RATE_LIMIT: "off",
    LIFELINE_PASSWORD_HASH_COST: "4",
  });
  // The server's request log would bury the table.
  logger.level = process.env.LOG_LEVEL ?? "warn";
  if (argv.includes("--import")) return runImportBench(argv);
  const registry = createAiRegistry();
  const embedder = options.embedder === "dense" ? denseEmbedder() : registry.embedder;
  const now = new Date();
  const questionTexts = generateQuestions(7, options.questions);
  const questions: Question[] = (await embedder.embed(questionTexts)).map((embedding, i) => ({
    text: questionTexts[i] as string,
    embedding,
  }));
  console.error(`bench: embedder ${embedder.model}; ${questions.length} questions × ${options.rounds} rounds`);

  const results: BenchResult[] = [];
  for (const kind of options.healthLoadOnly ? [] : options.dbs) {
    for (const size of options.sizes[kind]) {
      console.error(`\n${kind}, ${size} memories for the measured user, ${options.others} other users`);
      const database = await openBenchDatabase(kind, size, embedder.model, options.others);
      setDatabase(database);
      const server = await startTestServer({ database });
      try {
        const seeded = await prepare(database, server.url, size, embedder, now, options.others);
        const context: RetrievalContext = {
          db: database.db,
          userId: seeded.userId,
          embeddingModel: embedder.model,
          now,
        };
        const result: BenchResult = { db: kind, size, otherRows: (size * options.others) / 2, latency: {} };
        if (options.retrieval) {
          const hnsw =
            kind === "postgres" && options.hnswSizes.includes(size)
              ? HNSW_INDEXES.filter(({ name }) => !options.skip.includes(contenderName(name)))
              : [];
          await buildHnswIndexes(database, hnsw);
          if (hnsw.length > 0) await vacuumMemories(database.db);
          const all: Record<string, Contender> = {
            hybrid: statement("hybrid"),
            exact: statement("hybrid", "exact"),
            "two-stage": statement("hybrid", "two-stage"),
            ...Object.fromEntries(options.k.map((k) => [`two-stage-${k}`, statement("hybrid", "two-stage", k)])),
            ...Object.fromEntries(hnsw.map((index) => [contenderName(index.name), hnswStatement(index)])),
            weighted: statement("weighted", "exact"),
            "in-app": inAppBaseline,
            read: floorPass,
            distance: distancePass,
          };
          const contenders = Object.fromEntries(Object.entries(all).filter(([name]) => !options.skip.includes(name)));
          const { latency, tops } = await timeContenders(context, questions, options.rounds, contenders);
          const agreements = agreeing(options.k).filter(([a, b]) => tops.has(a) && tops.has(b));
          Object.assign(result, {
            latency,
            agreement: agreements.map(([reference, contender]) => agreementOf(tops, reference, contender)),
          });
          if (kind === "postgres") result.firstStagePlan = await firstStagePlan(context, questions[0] as Question);
          if (!options.skip.includes("stats-writes")) {
            console.error("memory_stats write costs…");
            result.statsWrites = await statsWriteCost(database, seeded.userId);
          }
          if (hnsw.length > 0 && !options.skip.includes("inserts")) {
            console.error("insert costs…");
            result.inserts = await insertCost(database, seeded.userId, [CODE_INDEX, ...hnsw.map(({ name }) => name)], {
              "no retrieval index": [],
              [CODE_INDEX]: [CODE_INDEX],
              ...Object.fromEntries(hnsw.map(({ name }) => [name, [name]])),
            });
          }
        }
        if (options.chat && options.chatSizes.includes(size)) {
          console.error("chat turns through the route…");
          result.chatTurn = await timeChat(server.url, seeded.users, questionTexts, options.concurrentUsers);
        }
        results.push(result);
        // Written after every size, so a run stopped later keeps what it measured.
        await writeReport(options.out, {
          at: now.toISOString(),
          embedder: embedder.model,
          questions: questions.length,
          rounds: options.rounds,
          results,
        });
      } finally {
        await server.close();
        await database.close();
        setDatabase(undefined);
      }
    }
  }

  let healthUnderLoadResults: HealthUnderLoad[] | undefined;
  if (options.healthLoad || options.healthLoadOnly) {
    console.error("\n/api/health under 40 sign-ins and one worst-case message (PGlite in memory)…");
    const database = await openDatabase({ kind: "pglite", migrate: true });
    setDatabase(database);
    const server = await startTestServer({ database });
    try {
      healthUnderLoadResults = await healthUnderLoad(server.url);
    } finally {
      await server.close();
      await database.close();
      setDatabase(undefined);
    }
  }

  const report: BenchReport = {
    at: now.toISOString(),
    embedder: embedder.model,
    questions: questions.length,
    rounds: options.rounds,
    results,
    ...(healthUnderLoadResults ? { healthUnderLoad: healthUnderLoadResults } : {}),
  };
  await writeReport(options.out, report);
  if (results.length > 0) console.log(formatTable(report));
  if (healthUnderLoadResults) console.log(`\n${formatHealthUnderLoad(healthUnderLoadResults)}`);
  console.log(`\nwritten: ${options.out}.json, ${options.out}.svg`);
  return 0;
}

if (process.argv[1] !== undefined && /bench[\\/]cli\.ts$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
