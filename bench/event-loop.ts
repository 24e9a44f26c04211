/**
 * `/api/health`'s latency while one process does the CPU work of 40 sign-ins and one worst-case
 * message (15,000 emoji) — the work that stalled every request before issue 25 — today's code and
 * the code before it, side by side in one run.
 *
 * `/api/health` is requested over HTTP from the real route (tests/http-server.ts mounts it the way
 * Next does), one request after another, for as long as the load runs. The load runs in the same
 * process as function calls, as the routes make them:
 * - 40 sign-ins: 40 password checks against a cost-12 hash, at most 2 at once (the cap both
 *   versions keep, with the same queue of 32: the rest are refused as busy at once): today
 *   lib/auth/password.ts (@node-rs/bcrypt, libuv's thread pool); before, its version of then,
 *   bench/baseline/password-before-issue-25.ts (bcryptjs, pure JavaScript on the event loop);
 * - one message: what a chat turn and its extraction compute on the embedded defaults — the
 *   prompt's token count, the offline answer's extraction, the model's usage count, the extraction
 *   job's extraction and the embedder's usage count — with today's lib/memory/tokens.ts and
 *   lib/ai/offline/extractor.ts; before, gpt-tokenizer called directly (the tokens.ts of then) and
 *   bench/baseline/extractor-before-issue-25.ts (the extractor of then, kept in the bench only).
 */
import { createHash } from "node:crypto";
import { hash as nativeHash } from "@node-rs/bcrypt";
import bcryptjs from "bcryptjs";
import { countTokens as countTokensBefore } from "gpt-tokenizer";
import { extractMemoriesOffline } from "@/lib/ai/offline/extractor";
import { verifyPassword } from "@/lib/auth/password";
import { countTokens } from "@/lib/memory/tokens";
import { extractMemoriesOffline as extractMemoriesBefore } from "./baseline/extractor-before-issue-25";
import { verifyPasswordBefore } from "./baseline/password-before-issue-25";
import { percentile } from "./stats";

export const SIGN_INS = 40;
export const WORST_CASE_MESSAGE = "😀".repeat(15_000);
const COST = 12;
const PASSWORD = "correct horse battery staple";
/** lib/auth/password.ts's pre-hash (both versions hash base64(SHA-256(password))). */
const prehashed = (password: string) => createHash("sha256").update(password, "utf8").digest("base64");

export interface HealthUnderLoad {
  contender: "before" | "after";
  label: string;
  /** Sign-ins refused as busy (the cap's queue was full), of SIGN_INS. */
  busy: number;
  /** /api/health requests answered while the load ran. */
  requests: number;
  p50: number;
  p95: number;
  max: number;
  loadMs: number;
}

interface Version {
  label: string;
  /** A stored hash of PASSWORD at cost 12, made by this version's hasher. */
  storedHash(): Promise<string>;
  checkPassword(password: string, hash: string): Promise<boolean>;
  countTokens(text: string): number;
  extract(message: string): unknown;
}

const VERSIONS: Record<HealthUnderLoad["contender"], Version> = {
  before: {
    label: "before: bcryptjs, tokenizer and extractor before issue 25",
    storedHash: () => bcryptjs.hash(prehashed(PASSWORD), COST),
    checkPassword: (password, hash) => verifyPasswordBefore(password, hash),
    countTokens: (text) => countTokensBefore(text, { disallowedSpecial: new Set() }),
    extract: (message) => extractMemoriesBefore({ currentDate: "2026-12-01", userMessage: message }),
  },
  after: {
    label: "after: @node-rs/bcrypt, bounded tokenizer and extractor",
    // At cost 12 whatever LIFELINE_PASSWORD_HASH_COST says: verifyPassword reads the cost from the hash.
    storedHash: () => nativeHash(prehashed(PASSWORD), COST),
    checkPassword: (password, hash) => verifyPassword(password, hash),
    countTokens,
    extract: (message) => extractMemoriesOffline({ currentDate: "2026-12-01", userMessage: message }),
  },
};

/** The message's CPU work, as the chat turn and its extraction job do it, with a turn of the event loop between steps. */
async function messageWork(version: Version, message: string): Promise<void> {
  const steps = [
    () => version.countTokens(message), // the prompt's budget (lib/memory/retrieval/prompt.ts)
    () => version.extract(message), // the offline answer (lib/ai/offline/chat.ts)
    () => version.countTokens(message), // the model's usage (lib/ai/offline/model.ts)
    () => version.extract(message), // the extraction job (the offline model's memory_extraction)
    () => version.countTokens(message), // the embedder's usage (lib/ai/offline/wordvec-embedder.ts)
  ];
  for (const step of steps) {
    await new Promise((resolve) => setImmediate(resolve));
    step();
  }
}

async function timeHealth(baseUrl: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/health`);
  await response.arrayBuffer();
  return performance.now() - started;
}

/** Runs one version's load and times /api/health back to back until it ends. */
export async function healthUnderLoad(
  baseUrl: string,
  contender: HealthUnderLoad["contender"],
): Promise<HealthUnderLoad> {
  const version = VERSIONS[contender];
  const hash = await version.storedHash();
  if (!(await version.checkPassword(PASSWORD, hash))) throw new Error(`${contender}: the password does not verify`);
  await timeHealth(baseUrl); // warm the route
  const started = performance.now();
  let running = true;
  let busy = 0;
  const load = Promise.all([
    ...Array.from({ length: SIGN_INS }, () =>
      version.checkPassword(PASSWORD, hash).catch((error: unknown) => {
        if ((error as Error).name !== "PasswordHashingBusy") throw error;
        busy++;
      }),
    ),
    messageWork(version, WORST_CASE_MESSAGE),
  ]).finally(() => {
    running = false;
  });
  const latencies: number[] = [];
  while (running) latencies.push(await timeHealth(baseUrl));
  await load;
  const loadMs = performance.now() - started;
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    contender,
    label: version.label,
    busy,
    requests: latencies.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? 0,
    loadMs,
  };
}

export function formatHealthUnderLoad(results: readonly HealthUnderLoad[]): string {
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  return [
    `/api/health while ${SIGN_INS} sign-ins (bcrypt cost ${COST}) and one message of 15,000 emoji run:`,
    ...results.map(
      (r) =>
        `  ${r.label.padEnd(58)} p95 ${ms(r.p95).padStart(8)}  p50 ${ms(r.p50).padStart(7)}  max ${ms(r.max).padStart(8)}  (${r.requests} requests; load ${ms(r.loadMs)}, ${r.busy} sign-ins busy)`,
    ),
  ].join("\n");
}
