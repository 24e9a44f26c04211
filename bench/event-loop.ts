/**
 * `/api/health`'s latency while one process does the CPU work of 40 sign-ins (cost-12 hashes
 * through the password cap) and one worst-case message (15,000 emoji), against the idle process in
 * the same run.
 */
import { createHash } from "node:crypto";
import { hash as nativeHash } from "@node-rs/bcrypt";
import { verifyPassword } from "@/lib/auth/password";
import { countTokens } from "@/lib/memory/tokens";
import { extractMemoriesOffline } from "@/lib/offline/extractor";
import { percentile } from "./stats";

export const SIGN_INS = 40;
export const WORST_CASE_MESSAGE = "😀".repeat(15_000);
const COST = 12;
const PASSWORD = "correct horse battery staple";
/** lib/auth/password.ts's pre-hash: base64(SHA-256(password)). */
const prehashed = (password: string) => createHash("sha256").update(password, "utf8").digest("base64");

export interface HealthUnderLoad {
  contender: "idle" | "load";
  label: string;
  /** Refused as busy (the cap's queue was full). */
  busy: number;
  requests: number;
  p50: number;
  p95: number;
  max: number;
  /** How long the load ran (idle: the span measured, the same as the load's when it ran first). */
  loadMs: number;
}

async function messageWork(message: string): Promise<void> {
  const extract = () => extractMemoriesOffline({ currentDate: "2026-12-01", userMessage: message });
  const steps = [
    () => countTokens(message), // the prompt's budget (lib/memory/retrieval/prompt.ts)
    extract, // the offline answer (lib/offline/chat.ts)
    () => countTokens(message), // the model's usage (lib/offline/model.ts)
    extract, // the extraction job (the offline model's memory_extraction)
    () => countTokens(message), // the embedder's usage (lib/offline/wordvec-embedder.ts)
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

function summarise(
  contender: HealthUnderLoad["contender"],
  label: string,
  latencies: number[],
  busy: number,
  loadMs: number,
): HealthUnderLoad {
  const sorted = [...latencies].sort((x, y) => x - y);
  return {
    contender,
    label,
    busy,
    requests: latencies.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? 0,
    loadMs,
  };
}

/** The loaded/idle ratio is what the work costs every other request. */
export async function healthUnderLoad(baseUrl: string): Promise<HealthUnderLoad[]> {
  // At cost 12 whatever LIFELINE_PASSWORD_HASH_COST says: verifyPassword reads the cost from the hash.
  const hash = await nativeHash(prehashed(PASSWORD), COST);
  if (!(await verifyPassword(PASSWORD, hash))) throw new Error("the password does not verify");
  await timeHealth(baseUrl); // warm the route
  const started = performance.now();
  let running = true;
  let busy = 0;
  const load = Promise.all([
    ...Array.from({ length: SIGN_INS }, () =>
      verifyPassword(PASSWORD, hash).catch((error: unknown) => {
        if ((error as Error).name !== "PasswordHashingBusy") throw error;
        busy++;
      }),
    ),
    messageWork(WORST_CASE_MESSAGE),
  ]).finally(() => {
    running = false;
  });
  const loaded: number[] = [];
  while (running) loaded.push(await timeHealth(baseUrl));
  await load;
  const loadMs = performance.now() - started;

  const idle: number[] = [];
  const idleStarted = performance.now();
  while (performance.now() - idleStarted < loadMs) idle.push(await timeHealth(baseUrl));
  return [
    summarise("idle", "idle process", idle, 0, performance.now() - idleStarted),
    summarise("load", "40 sign-ins and one 15,000-emoji message", loaded, busy, loadMs),
  ];
}

export function formatHealthUnderLoad(results: readonly HealthUnderLoad[]): string {
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const idle = results.find((r) => r.contender === "idle");
  const load = results.find((r) => r.contender === "load");
  const ratio = idle && load && idle.p95 > 0 ? [`  p95 under load / idle: ${(load.p95 / idle.p95).toFixed(1)}×`] : [];
  return [
    `/api/health while ${SIGN_INS} sign-ins (bcrypt cost ${COST}) and one message of 15,000 emoji run, and idle:`,
    ...results.map(
      (r) =>
        `  ${r.label.padEnd(42)} p95 ${ms(r.p95).padStart(8)}  p50 ${ms(r.p50).padStart(7)}  max ${ms(r.max).padStart(8)}  (${r.requests} requests in ${ms(r.loadMs)}, ${r.busy} sign-ins busy)`,
    ),
    ...ratio,
  ].join("\n");
}
