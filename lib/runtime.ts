/**
 * The composition root. Only the app edge imports it (tests/architecture.test.ts enforces that);
 * everything below is handed its dependencies, so tests and scripts can pass their own.
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
import { chatTurnsInFlight } from "@/lib/chat/in-flight";
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
  dispatchStalledImports,
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

export function retrievalStrategyName(env: RawEnv = processEnv()): RetrievalStrategyName {
  // parseEnv already refused any other name; this only narrows the type.
  const name = parseEnv(env).LIFELINE_RETRIEVAL_STRATEGY;
  return name !== undefined && Object.hasOwn(retrievalStrategies, name)
    ? (name as RetrievalStrategyName)
    : DEFAULT_RETRIEVAL_STRATEGY;
}

export function processAssemblyConfig(env: RawEnv = processEnv()): AssemblyConfig {
  return assemblyConfigFor(retrievalStrategyName(env));
}

/** So a search by meaning of the memories leaves out what a prompt would. */
export function processSimilarityThreshold(embedderId: string, env: RawEnv = processEnv()): number {
  return forEmbedder(processAssemblyConfig(env).retrieval, embedderId).similarityThreshold;
}

export const systemClock = (): Date => new Date();

/** A fresh install has no start-up work, and opening the database only to find that out would create it. */
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
    deps: async (letChatFirst) =>
      extractionDeps({ db: (await getDatabase()).yieldingTo(letChatFirst), ai: getAiRegistry(), now: systemClock }),
    liveIdle: (userId) => getInProcessRunner().laneIdle(userId),
    chatTurns: chatTurnsInFlight(),
  });
  return globalForImports.__lifelineImportRunner;
}

export function processImportDispatcher(kind: JobRunnerKind = jobRunnerKind()): ImportDispatcher {
  return kind === "inngest" ? inngestImportDispatcher() : inProcessImportDispatcher(getInProcessImportRunner());
}

export function processDispatcher(kind: JobRunnerKind = jobRunnerKind()): ExtractionDispatcher {
  return kind === "inngest" ? inngestDispatcher() : inProcessDispatcher(getInProcessRunner());
}

/** Only the in-process runner resumes work a stopped process left; Inngest keeps its own runs. */
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
// One line per outage, not one per task.
const globalForUnreachable = globalThis as unknown as { __lifelineDbUnreachableReported?: boolean };

/** An unreachable database is reported by the first failing task; the others stay quiet until it is reached again. */
function logBackgroundFailure(error: unknown, message: string): void {
  if (isDbError(error, "DatabaseUnreachableError")) {
    if (globalForUnreachable.__lifelineDbUnreachableReported) return;
    globalForUnreachable.__lifelineDbUnreachableReported = true;
    logger.error(error.message);
    return;
  }
  logger.error({ err: error }, message);
}

function databaseReached(): void {
  globalForUnreachable.__lifelineDbUnreachableReported = false;
}

export function resumeExtractionsInBackground(): void {
  void resumeExtractions().catch((error: unknown) =>
    logBackgroundFailure(error, "could not resume pending memory extractions (they resume at the next start)"),
  );
}

/**
 * A database without pgvector, unmigrated or unreachable is reported at start, not first met by a
 * user's request. Never throws: a database down now may be up for the next request.
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

/** Picks up the rows of a process that stopped between an answer's commit and its hand-over. */
export async function dispatchUndispatchedNow(env: RawEnv = processEnv()): Promise<number> {
  if (noEmbeddedDataYet(env)) return 0;
  const handed = await dispatchUndispatchedExtractions(await getDb(), processDispatcher(), { now: systemClock() });
  if (handed > 0) logger.warn({ handed }, "handed over memory extractions a stopped process left queued");
  return handed;
}

/** Hands over again the running imports that stopped moving (their start's event lost, their run stopped). */
export async function dispatchStalledImportsNow(env: RawEnv = processEnv()): Promise<number> {
  if (noEmbeddedDataYet(env)) return 0;
  const handed = await dispatchStalledImports(await getDb(), processImportDispatcher(jobRunnerKind(env)), {
    now: systemClock(),
  });
  if (handed > 0) logger.warn({ handed }, "handed over running imports that had stopped moving");
  return handed;
}

export async function titleStaleConversationsNow(env: RawEnv = processEnv()): Promise<number> {
  if (noEmbeddedDataYet(env)) return 0;
  return titleStaleConversations(await getDb(), getAiRegistry(), { now: systemClock(), log: logger });
}

/** The undo window's end is stored with the memory, so a restart or a cold serverless start misses none. */
export async function redactDueDeletionsNow(env: RawEnv = processEnv()): Promise<number> {
  if (noEmbeddedDataYet(env)) return 0;
  const redacted = await redactDueDeletions(await getDb(), { now: systemClock(), batch: deletionConfig.sweepBatch });
  if (redacted > 0) logger.info({ redacted }, "redacted deleted memories whose undo window closed");
  return redacted;
}

/** Shared by a long-lived server's timer and the Inngest `sweeps` function. */
export interface Sweeps {
  interruptedAnswers(): Promise<number>;
  interruptedSends(): Promise<number>;
  undispatchedExtractions(): Promise<number>;
  stalledImports(): Promise<number>;
  untitledConversations(): Promise<number>;
  dueRedactions(): Promise<number>;
}

export function processSweeps(env: RawEnv = processEnv()): Sweeps {
  return {
    interruptedAnswers: () => recoverInterruptedAnswersNow(env),
    interruptedSends: () => recoverInterruptedSendsNow(env),
    undispatchedExtractions: () => dispatchUndispatchedNow(env),
    stalledImports: () => dispatchStalledImportsNow(env),
    untitledConversations: () => titleStaleConversationsNow(env),
    dueRedactions: () => redactDueDeletionsNow(env),
  };
}

const globalForSweep = globalThis as unknown as { __lifelineAnswerSweep?: NodeJS.Timeout };

/**
 * A serverless process is frozen between requests, so there the Inngest `sweeps` function runs them
 * instead. One sweep failing is logged and the others still run; never throws.
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
      .stalledImports()
      .catch((error: unknown) =>
        logBackgroundFailure(error, "could not hand over stalled imports (the next sweep tries again)"),
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

/** Batches with pauses so the app keeps serving while it re-embeds. */
export const BACKGROUND_REEMBED = { batchSize: 32, pauseMs: 200, logEveryMs: 10_000 } as const;

/**
 * Until a memory is re-embedded, retrieval cannot compare it. Several processes starting at once
 * repeat work but never conflict (every write is guarded); a stopped run resumes at the next start.
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
 * Serverless: a start-up loop would be frozen between requests, so an event hands the work to a
 * durable function that runs once at a time per embedder. Returns how many wait.
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
