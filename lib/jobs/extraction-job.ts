/**
 * ONE body for both runners. A row that is not runnable stops the job quietly: that is what a
 * redelivered event or duplicate dispatch meets. A failure is recorded on the row before it
 * propagates; spent attempts throw FinalJobError so Inngest stops retrying too.
 *
 * Every model call is captured at the model boundary (lib/ai/capture.ts) and travels in its step's
 * result, so a step replayed from Inngest's memo still brings the calls that made its result. The row
 * keeps the calls of its latest attempt: the store writes the calls behind the decisions it stores; a
 * failed attempt writes the calls it made, the failing one last, until the next attempt ends.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { extractionConfig } from "@/core/config";
import { logger } from "@/core/logger";
import { inSpan } from "@/core/telemetry";
import type { Db } from "@/db/client";
import { claimExtraction, loadExtractionSource, recordFailedAttempt } from "@/db/queries/extractions";
import { type CapturedCall, withCapture } from "@/lib/ai/capture";
import { TerminalOutputError } from "@/lib/memory/extraction/call";
import { planConsolidation } from "@/lib/memory/extraction/consolidate";
import { currentDateOf, extractMemories } from "@/lib/memory/extraction/extract";
import { storeExtraction } from "@/lib/memory/extraction/store";
import { embedMemoryTexts, memoryEmbeddingText } from "@/lib/memory/store/memory-store";
import { errorMessage, FinalJobError, type JobSteps, type Json } from "./steps";

export interface ExtractionDeps {
  db: Db;
  model: LanguageModelV4;
  embed: (texts: string[]) => Promise<number[][]>;
  embeddingModel: string;
  now: () => Date;
}

export const MAX_EXTRACTION_ATTEMPTS = extractionConfig.retries + 1;

export type ExtractionOutcome =
  | { extractionId: string; status: "succeeded"; memoryIds: string[]; alreadyStored: boolean }
  | { extractionId: string; status: "not-runnable" };

type NotRunnable = { notRunnable: true };
const NOT_RUNNABLE: NotRunnable = { notRunnable: true };

function isNotRunnable(value: unknown): value is NotRunnable {
  return typeof value === "object" && value !== null && (value as { notRunnable?: unknown }).notRunnable === true;
}

/** Captured params are JSON (toCapturedParams), so calls cross a step boundary as they are. */
type StepCall = Omit<CapturedCall, "params"> & { params: { [key: string]: Json } };
const asStepCalls = (calls: CapturedCall[]) => calls as StepCall[];

/** A run Inngest memoised before calls were recorded replays the bare array: its calls are unknown. */
function withCalls<K extends string, T extends { [key in K]: unknown } & { calls: StepCall[] }>(result: T, key: K): T {
  return Array.isArray(result) ? ({ [key]: result, calls: [] } as unknown as T) : result;
}

async function failedAttempt(
  deps: ExtractionDeps,
  extractionId: string,
  stepId: string,
  error: unknown,
  steps: JobSteps,
  modelInput: readonly CapturedCall[],
): Promise<unknown> {
  const message = `${stepId}: ${errorMessage(error)}`;
  // A refusal, or an answer cut off at the output limit twice: no attempt would answer differently.
  const terminal = error instanceof TerminalOutputError;
  try {
    const now = deps.now();
    const recorded = await recordFailedAttempt(deps.db, {
      extractionId,
      error: message,
      modelInput,
      maxAttempts: terminal ? 1 : MAX_EXTRACTION_ATTEMPTS,
      retryAt: (failed) => steps.retryAt(failed, now),
      now,
    });
    if (recorded === null)
      return new FinalJobError(`${message} (the extraction is no longer runnable)`, { cause: error });
    if (recorded.status === "failed" && terminal) {
      return new FinalJobError(`${message} (final: a retry would not answer differently)`, { cause: error });
    }
    if (recorded.status === "failed") {
      return new FinalJobError(`${message} (attempt ${recorded.attempts} of ${MAX_EXTRACTION_ATTEMPTS}; giving up)`, {
        cause: error,
      });
    }
  } catch (recordError) {
    // The row keeps its status; the runner's retry (or a restart's resume) finds it again.
    logger.error({ err: recordError, extractionId }, "could not record a failed extraction attempt");
  }
  return error;
}

export async function runExtraction(
  deps: ExtractionDeps,
  { extractionId }: { extractionId: string },
  steps: JobSteps,
): Promise<ExtractionOutcome> {
  let claimed = false;
  // The calls behind the steps finished so far in this run (replayed ones included).
  const made: CapturedCall[] = [];
  const step = <T extends Json>(
    id: string,
    fn: (model: LanguageModelV4, calls: CapturedCall[]) => Promise<T>,
  ): Promise<T | NotRunnable> =>
    steps.run<T | NotRunnable>(id, () =>
      // One span per step that runs (a step Inngest replays from its memo runs nothing, and has none).
      inSpan(
        `extraction.${id}`,
        { "lifeline.extraction.id": extractionId, "lifeline.job.runner": steps.runner },
        async () => {
          if (!claimed) {
            claimed = true;
            const runnable = await claimExtraction(deps.db, { extractionId, runner: steps.runner, now: deps.now() });
            if (!runnable) return NOT_RUNNABLE;
          }
          const calls: CapturedCall[] = [];
          try {
            return await fn(withCapture(deps.model, calls), calls);
          } catch (error) {
            throw await failedAttempt(deps, extractionId, id, error, steps, [...made, ...calls]);
          }
        },
      ),
    );
  const stopped: ExtractionOutcome = { extractionId, status: "not-runnable" };

  const loaded = await step("load-pair", async () => {
    const source = await loadExtractionSource(deps.db, {
      extractionId,
      previousMessages: extractionConfig.previousMessages,
    });
    if (!source) throw new Error("the message pair could not be read");
    // An imported exchange is read on the day it was said: "next week" means the week after it.
    const saidAt = source.importedSaidAt ? new Date(source.importedSaidAt) : deps.now();
    return { source, currentDate: currentDateOf(saidAt, source.userTimeZone) };
  });
  if (isNotRunnable(loaded)) return stopped;
  const { source, currentDate } = loaded;

  const extracted = await step("extract", async (model, calls) => ({
    candidates: await extractMemories(model, {
      currentDate,
      userName: source.userName,
      previousMessages: source.previous.map(({ role, content }) => ({ role, content })),
      userMessage: source.userMessage.content,
      assistantMessage: source.assistantMessage.content,
    }),
    calls: asStepCalls(calls),
  }));
  if (isNotRunnable(extracted)) return stopped;
  const { candidates, calls: extractCalls } = withCalls(extracted, "candidates");
  made.push(...extractCalls);

  // Nothing worth keeping: no embedding, no consolidation — straight to the (idempotent) store.
  const embeddings =
    candidates.length === 0
      ? []
      : await step("embed", () => embedMemoryTexts(deps.embed, candidates.map(memoryEmbeddingText)));
  if (isNotRunnable(embeddings)) return stopped;

  const consolidated =
    candidates.length === 0
      ? { decisions: [], calls: [] }
      : await step("consolidate", async (model, calls) => ({
          decisions: await planConsolidation({ ...deps, model }, { userId: source.userId, candidates, embeddings }),
          calls: asStepCalls(calls),
        }));
  if (isNotRunnable(consolidated)) return stopped;
  const { decisions, calls: consolidateCalls } = withCalls(consolidated, "decisions");
  made.push(...consolidateCalls);

  const stored = await step("store", () =>
    storeExtraction(deps.db, {
      extractionId,
      userId: source.userId,
      conversationId: source.conversationId,
      userMessageId: source.userMessage.id,
      assistantMessageId: source.assistantMessage.id,
      examinedMessageIds: [...source.previous.map((m) => m.id), source.userMessage.id, source.assistantMessage.id],
      candidates,
      embeddings,
      decisions,
      modelInput: made,
      embeddingModel: deps.embeddingModel,
      now: deps.now(),
    }),
  );
  if (isNotRunnable(stored) || stored.status !== "succeeded") return stopped;
  return { extractionId, status: "succeeded", memoryIds: stored.memoryIds, alreadyStored: stored.alreadyStored };
}
