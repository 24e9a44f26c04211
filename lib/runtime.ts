/**
 * The composition root: the process's real dependencies — the database (db/client), the AI
 * registry (lib/ai/registry), the clock, and the job runner they feed. Only the app edge imports
 * this module (the route wrapper, server pages, the Inngest function, instrumentation.ts and
 * scripts); everything below it is handed what it needs, so tests and scripts can pass their own.
 * tests/architecture.test.ts enforces that.
 */
import { existsSync } from "node:fs";
import {
  answerConfig,
  DEFAULT_RETRIEVAL_STRATEGY,
  deletionConfig,
  type RetrievalStrategyName,
  retrievalStrategies,
} from "@/core/config";
import { parseEnv, env as processEnv, type RawEnv } from "@/core/env";
import { logger } from "@/core/logger";
import { getDatabase, getDb, isDbError, optionsFromEnv } from "@/db/client";
import { redactDueDeletions } from "@/db/queries/redaction";
import { countAwaitingEmbedder } from "@/db/queries/reembed";
import { recoverInterruptedSends } from "@/lib/agent/approval";
import { getAiRegistry } from "@/lib/ai/registry";
import { recoverInterruptedAnswers } from "@/lib/chat/interrupted";
import { titleStaleConversations } from "@/lib/chat/title";
import { extractionDeps } from "@/lib/jobs/extraction-deps";
import type { ExtractionDeps } from "@/lib/jobs/extraction-job";
import {
  dispatchUndispatchedExtractions,
  type ExtractionDispatcher,
  inngestDispatcher,
  inProcessDispatcher,
} from "@/lib/jobs/extraction-queue";
import {
  type ImportDispatcher,
  InProcessImportRunner,
  inngestImportDispatcher,
  inProcessImportDispatcher,
} from "@/lib/jobs/import-runner";
import { InProcessRunner } from "@/lib/jobs/in-process-runner";
import { type InngestClient, inngest, memoriesReembedRequested } from "@/lib/jobs/inngest-client";
import { type JobRunnerKind, jobRunnerKind } from "@/lib/jobs/runner-kind";
import { type AssemblyConfig, assemblyConfigFor, forEmbedder } from "@/lib/memory/retrieval/assembly-config";
import {
  type ReembedDeps,
  type ReembedProgress,
  type ReembedResult,
  reembedMemories,
} from "@/lib/memory/store/reembed";

/** LIFELINE_RETRIEVAL_STRATEGY (validated by core/env.ts), else core/config's default ("hybrid"). */
export function retrievalStrategyName(env: RawEnv = processEnv()): RetrievalStrategyName {
  // parseEnv refuses any other name; the check narrows the validated string to the name's type.
  const name = parseEnv(env).LIFELINE_RETRIEVAL_STRATEGY;
  return name !== undefined && Object.hasOwn(retrievalStrategies, name)
    ? (name as RetrievalStrategyName)
    : DEFAULT_RETRIEVAL_STRATEGY;
}

/** The numbers every chat turn and preview of this process assembles context with: the strategy in force. */
export function processAssemblyConfig(env: RawEnv = processEnv()): AssemblyConfig {
  return assemblyConfigFor(retrievalStrategyName(env));
}

/**
 * The similarity threshold retrieval applies to `embedderId`'s vectors under the strategy in force:
 * a search by meaning of the memories leaves out what a prompt would.
 */
export function processSimilarityThreshold(embedderId: string, env: RawEnv = processEnv()): number {
  return forEmbedder(processAssemblyConfig(env).retrieval, embedderId).similarityThreshold;
}

export const systemClock = (): Date => new Date();

/**
 * An embedded PGlite database whose data directory does not exist yet (a fresh install): the
 * start-up work (resuming jobs, the sweeps, re-embedding) has nothing to do, and opening the
 * database only to find that out would create it.
 */
function noEmbeddedDataYet(env: RawEnv): boolean {
  const database = optionsFromEnv(env);
  return database.kind === "pglite" && Boolean(database.dataDir && !existsSync(database.dataDir));
}

export async function processReembedDeps(): Promise<ReembedDeps> {
  return { db: await getDb(), embedder: getAiRegistry().embedder };
}

export async function processExtractionDeps(): Promise<ExtractionDeps> {
  return extractionDeps({ db: await getDb(), ai: getAiRegistry(), now: systemClock });
}

// One runner per server process, kept across dev-server hot reloads.
const globalForJobs = globalThis as unknown as { __lifelineInProcessRunner?: InProcessRunner };

export function getInProcessRunner(): InProcessRunner {
  globalForJobs.__lifelineInProcessRunner ??= new InProcessRunner({ deps: processExtractionDeps });
  return globalForJobs.__lifelineInProcessRunner;
}

const globalForImports = globalThis as unknown as { __lifelineImportRunner?: InProcessImportRunner };

export function getInProcessImportRunner(): InProcessImportRunner {
  globalForImports.__lifelineImportRunner ??= new InProcessImportRunner({
    deps: processExtractionDeps,
    liveIdle: (userId) => getInProcessRunner().laneIdle(userId),
  });
  return globalForImports.__lifelineImportRunner;
}

export function processImportDispatcher(kind: JobRunnerKind = jobRunnerKind()): ImportDispatcher {
  return kind === "inngest" ? inngestImportDispatcher() : inProcessImportDispatcher(getInProcessImportRunner());
}

export function processDispatcher(kind: JobRunnerKind = jobRunnerKind()): ExtractionDispatcher {
  return kind === "inngest" ? inngestDispatcher() : inProcessDispatcher(getInProcessRunner());
}

/**
 * What a server start does for jobs (instrumentation.ts → register()): with the in-process
 * runner, resume every extraction a stopped process left queued or running, and every import left running. With Inngest there is
 * nothing to do — Inngest keeps its own runs. Cheap when nothing is pending: one indexed query,
 * and with embedded PGlite not even that when its data directory does not exist yet (a fresh
 * install has no jobs).
 */
export async function resumeExtractions(env: RawEnv = processEnv()): Promise<number> {
  if (jobRunnerKind(env) !== "in-process") return 0;
  if (noEmbeddedDataYet(env)) return 0;
  const resumed = await getInProcessRunner().resume();
  if (resumed > 0) logger.info({ resumed }, "resumed pending memory extractions");
  const imports = await getInProcessImportRunner().resume();
  if (imports > 0) logger.info({ imports }, "resumed running imports");
  return resumed;
}

/** register()'s call: never throws and never delays the start. */
// Whether the unreachable database was reported since it was last reached (one line, not one per task).
const globalForUnreachable = globalThis as unknown as { __lifelineDbUnreachableReported?: boolean };

/**
 * Logs a failed background task. The tasks a start runs (and the periodic sweep) all need the
 * database: when it cannot be reached, the first says so ("cannot reach the database at
 * DATABASE_URL (host:port): cause", db/client.ts) and the others stay quiet until it is reached again.
 */
function logBackgroundFailure(error: unknown, message: string): void {
  if (isDbError(error, "DatabaseUnreachableError")) {
    if (globalForUnreachable.__lifelineDbUnreachableReported) return;
    globalForUnreachable.__lifelineDbUnreachableReported = true;
    logger.error(error.message);
    return;
  }
  logger.error({ err: error }, message);
}

/** A background task reached the database: the next time it cannot be reached is reported again. */
function databaseReached(): void {
  globalForUnreachable.__lifelineDbUnreachableReported = false;
}

export function resumeExtractionsInBackground(): void {
  void resumeExtractions().catch((error: unknown) =>
    logBackgroundFailure(error, "could not resume pending memory extractions (they resume at the next start)"),
  );
}

/**
 * register()'s call on Postgres: opens the database at start, so a server without pgvector (or an
 * unmigrated database, or an unreachable one) is reported in the log at once, naming DATABASE_URL
 * and the fix (db/client.ts) — not first met by a user's request. Never throws: a database that is
 * down now may be up for the next request, which opens it again.
 */
export function checkDatabaseInBackground(env: RawEnv = processEnv()): void {
  if (optionsFromEnv(env).kind !== "postgres") return;
  void getDatabase().then(databaseReached, (error: unknown) =>
    logBackgroundFailure(
      error,
      error instanceof Error && error.message ? error.message : "could not open the database",
    ),
  );
}

/**
 * LIFELINE_INTERRUPTED_AFTER_MS: how long an answer may stay `streaming` without progress before it
 * counts as cut off (default answerConfig.interruptedAfterMs).
 */
export function interruptedAfterMs(env: RawEnv = processEnv()): number {
  const value = Number(env.LIFELINE_INTERRUPTED_AFTER_MS);
  return Number.isFinite(value) && value > 0 ? value : answerConfig.interruptedAfterMs;
}

export async function recoverInterruptedAnswersNow(env: RawEnv = processEnv()): Promise<number> {
  if (noEmbeddedDataYet(env)) return 0;
  return recoverInterruptedAnswers(
    await getDb(),
    { dispatcher: processDispatcher(), now: systemClock, log: logger },
    { interruptedAfterMs: interruptedAfterMs(env) },
  );
}

export async function recoverInterruptedSendsNow(env: RawEnv = processEnv()): Promise<number> {
  if (noEmbeddedDataYet(env)) return 0;
  return recoverInterruptedSends(await getDb(), { now: systemClock, log: logger });
}

/**
 * The outbox sweep in this process: hands every extraction queued longer than
 * extractionConfig.redispatchAfterMs, and not attempted since, to this process's runner — the
 * rows of a process that stopped between an answer's commit and its hand-over.
 */
export async function dispatchUndispatchedNow(env: RawEnv = processEnv()): Promise<number> {
  if (noEmbeddedDataYet(env)) return 0;
  const handed = await dispatchUndispatchedExtractions(await getDb(), processDispatcher(), { now: systemClock() });
  if (handed > 0) logger.warn({ handed }, "handed over memory extractions a stopped process left queued");
  return handed;
}

export async function titleStaleConversationsNow(env: RawEnv = processEnv()): Promise<number> {
  if (noEmbeddedDataYet(env)) return 0;
  return titleStaleConversations(await getDb(), getAiRegistry(), { now: systemClock(), log: logger });
}

/**
 * The deletions whose undo window has closed: their text leaves the records derived from them
 * (db/queries/redaction.ts redactDueDeletions). The window's end is stored with the memory, so a
 * restart or a cold serverless start misses none.
 */
export async function redactDueDeletionsNow(env: RawEnv = processEnv()): Promise<number> {
  if (noEmbeddedDataYet(env)) return 0;
  const redacted = await redactDueDeletions(await getDb(), { now: systemClock(), batch: deletionConfig.sweepBatch });
  if (redacted > 0) logger.info({ redacted }, "redacted deleted memories whose undo window closed");
  return redacted;
}

/** The sweeps, each on its own: what a long-lived server runs every minute and the Inngest `sweeps` function runs. */
export interface Sweeps {
  /** Answers left `streaming` → interrupted, with their extraction (lib/chat/interrupted.ts). */
  interruptedAnswers(): Promise<number>;
  /** Email sends left `approved` → interrupted (lib/agent/approval.ts). */
  interruptedSends(): Promise<number>;
  /** Extractions left `queued` and never handed over → handed over (the outbox). */
  undispatchedExtractions(): Promise<number>;
  /** Title jobs left waiting → run (the title outbox). */
  untitledConversations(): Promise<number>;
  /** Deleted memories past their undo window → their text redacted from derived records. */
  dueRedactions(): Promise<number>;
}

export function processSweeps(env: RawEnv = processEnv()): Sweeps {
  return {
    interruptedAnswers: () => recoverInterruptedAnswersNow(env),
    interruptedSends: () => recoverInterruptedSendsNow(env),
    undispatchedExtractions: () => dispatchUndispatchedNow(env),
    untitledConversations: () => titleStaleConversationsNow(env),
    dueRedactions: () => redactDueDeletionsNow(env),
  };
}

const globalForSweep = globalThis as unknown as { __lifelineAnswerSweep?: NodeJS.Timeout };

/**
 * register()'s call: runs the sweeps (processSweeps) at start, then every
 * answerConfig.sweepIntervalMs (or sooner when the interrupted-answer bound is shorter) for as long
 * as the process lives — on a serverless host, where the process is frozen between requests, the
 * Inngest `sweeps` function runs them every minute instead (inngest/functions/sweeps.ts). Each
 * sweep runs outside any request and on its own: one failing is logged, the others still run.
 * Never throws.
 */
export function sweepInterruptedAnswersInBackground(env: RawEnv = processEnv()): void {
  const sweeps = processSweeps(env);
  const sweep = () => {
    // Interrupted answers first: their rows are handed over by that sweep, not left to the outbox's.
    void sweeps
      .interruptedAnswers()
      .then(databaseReached, (error: unknown) =>
        logBackgroundFailure(error, "could not look for interrupted answers (the next sweep tries again)"),
      )
      .then(() => sweeps.undispatchedExtractions())
      .catch((error: unknown) =>
        logBackgroundFailure(error, "could not hand over queued memory extractions (the next sweep tries again)"),
      );
    void sweeps
      .untitledConversations()
      .catch((error: unknown) =>
        logBackgroundFailure(
          error,
          "could not title conversations a stopped process left (the next sweep tries again)",
        ),
      );
    void sweeps
      .interruptedSends()
      .catch((error: unknown) =>
        logBackgroundFailure(error, "could not look for interrupted email sends (the next sweep tries again)"),
      );
    void sweeps
      .dueRedactions()
      .catch((error: unknown) =>
        logBackgroundFailure(
          error,
          "could not redact deleted memories past their undo window (the next sweep tries again)",
        ),
      );
  };
  sweep();
  if (globalForSweep.__lifelineAnswerSweep) clearInterval(globalForSweep.__lifelineAnswerSweep);
  globalForSweep.__lifelineAnswerSweep = setInterval(
    sweep,
    Math.min(answerConfig.sweepIntervalMs, interruptedAfterMs(env)),
  );
  globalForSweep.__lifelineAnswerSweep.unref();
}

// One re-embedding run per server process, kept across dev-server hot reloads.
const globalForReembed = globalThis as unknown as { __lifelineReembed?: Promise<ReembedResult | number | null> };

/** Memories per batch, and the pause between batches, of the start-up re-embedding: the app keeps serving. */
export const BACKGROUND_REEMBED = { batchSize: 32, pauseMs: 200, logEveryMs: 10_000 } as const;

/**
 * What a server start does after the embedder changed (instrumentation.ts → register()): re-embeds
 * every memory the configured embedder did not embed (lib/memory/store/reembed.ts), batch by batch
 * with a pause between batches, logging its progress. Until a memory is done, retrieval cannot
 * compare it and the trace counts it as waiting. Cheap when nothing waits: one count — and with
 * embedded PGlite nothing at all when its data directory does not exist yet. With the in-process
 * runner it runs in this process: several processes starting at once repeat work but never
 * conflict (every write is guarded); a stopped run resumes at the next start. With Inngest, see
 * requestReembedOnInngest.
 */
export async function reembedAfterEmbedderChange(env: RawEnv = processEnv()): Promise<ReembedResult | null> {
  if (noEmbeddedDataYet(env)) return null;
  const embedder = getAiRegistry().embedder;
  let lastLog = 0;
  const log = (progress: ReembedProgress) => {
    if (progress.total === 0) return;
    if (progress.batches === 0) {
      logger.info(
        { waiting: progress.total, embedder: progress.embedder },
        "re-embedding memories for the configured embedder in the background (retrieval cannot compare them until then)",
      );
    } else if (Date.now() - lastLog >= BACKGROUND_REEMBED.logEveryMs) {
      logger.info({ ...progress }, "re-embedding memories");
    } else return;
    lastLog = Date.now();
  };
  const result = await reembedMemories(await getDb(), embedder, {
    batchSize: BACKGROUND_REEMBED.batchSize,
    pauseMs: BACKGROUND_REEMBED.pauseMs,
    onProgress: log,
  });
  if (result.total > 0) {
    const level = result.failed > 0 ? "warn" : "info";
    logger[level](
      { ...result },
      result.failed > 0
        ? "re-embedding finished; some memories could not be embedded (they wait for the next start or npm run memories:reembed)"
        : "re-embedding finished",
    );
  }
  return result;
}

/**
 * With Inngest (serverless: a start-up loop would be frozen between requests), a server start that
 * finds memories waiting sends `lifeline/memories.reembed-requested` for the configured embedder,
 * and the `reembed-memories` function re-embeds them durably, one step per batch
 * (inngest/functions/reembed-memories.ts). Every cold start that finds memories waiting sends the
 * event; the function runs once at a time per embedder and skips the rest. Returns how many wait.
 */
export async function requestReembedOnInngest(client: InngestClient = inngest): Promise<number> {
  const { db, embedder } = await processReembedDeps();
  const waiting = await countAwaitingEmbedder(db, { model: embedder.model });
  if (waiting === 0) return 0;
  await client.send(memoriesReembedRequested.create({ embedder: embedder.model }));
  logger.info(
    { waiting, embedder: embedder.model },
    "memories wait for re-embedding: the reembed-memories job was requested from Inngest",
  );
  return waiting;
}

/** register()'s call: never throws, never delays the start, and runs once at a time per process. */
export function reembedInBackground(env: RawEnv = processEnv()): void {
  if (globalForReembed.__lifelineReembed) return;
  const run: Promise<ReembedResult | number | null> =
    jobRunnerKind(env) === "inngest" ? requestReembedOnInngest() : reembedAfterEmbedderChange(env);
  globalForReembed.__lifelineReembed = run
    .catch((error: unknown) => {
      logBackgroundFailure(
        error,
        "could not re-embed memories for the configured embedder (the next start or npm run memories:reembed continues)",
      );
      return null;
    })
    .finally(() => {
      globalForReembed.__lifelineReembed = undefined;
    });
}
