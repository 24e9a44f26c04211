/**
 * The extraction outbox: the row commits with the answer and is handed over only after the commit; a
 * process that stops in between leaves it `queued` for the sweep. The answer never waits for
 * extraction, and a dispatch failure is written on the row, where the user sees it and can retry.
 */

import { extractionConfig } from "@/core/config";
import { logger } from "@/core/logger";
import type { Db } from "@/db/client";
import {
  createExtraction,
  type Extraction,
  listUndispatchedExtractions,
  markExtractionFailed,
  requeueFailedExtraction,
} from "@/db/queries/extractions";
import type { ExtractionStatus } from "@/db/schema";
import { runAfterResponse } from "./after-response";
import type { ExtractionJob, InProcessRunner } from "./in-process-runner";
import { type InngestClient, inngest, messagePairCompleted } from "./inngest-client";
import type { JobRunnerKind } from "./runner-kind";
import { errorMessage } from "./steps";

export { runAfterResponse };

export interface ExtractionDispatcher {
  readonly kind: JobRunnerKind;
  /** Rejects when it could not hand over; the caller records that on the row. */
  dispatch(job: ExtractionJob & { queuedAt: Date }): Promise<void>;
}

/** The event id dedups a double send of one enqueue at Inngest; a retry (new queued_at) is a new event. */
export function inngestDispatcher(client: InngestClient = inngest): ExtractionDispatcher {
  return {
    kind: "inngest",
    async dispatch({ extractionId, userId, queuedAt }) {
      await client.send(
        messagePairCompleted.create(
          { extractionId, userId },
          { id: `extraction-${extractionId}-${queuedAt.getTime()}` },
        ),
      );
    },
  };
}

export function inProcessDispatcher(runner: InProcessRunner): ExtractionDispatcher {
  return { kind: "in-process", dispatch: (job) => runner.run(job) };
}

/** Never throws: a failure marks the row failed (unless the job has already moved on). */
export async function dispatchExtraction(
  db: Db,
  extraction: Pick<Extraction, "id" | "userId" | "queuedAt">,
  dispatcher: ExtractionDispatcher,
): Promise<void> {
  try {
    await dispatcher.dispatch({
      extractionId: extraction.id,
      userId: extraction.userId,
      queuedAt: extraction.queuedAt,
    });
  } catch (error) {
    logger.error(
      { err: error, extractionId: extraction.id, runner: dispatcher.kind },
      "could not dispatch an extraction",
    );
    await markExtractionFailed(db, {
      extractionId: extraction.id,
      error: `dispatch (${dispatcher.kind}): ${errorMessage(error)}`,
      now: new Date(),
    }).catch((markError: unknown) =>
      logger.error({ err: markError, extractionId: extraction.id }, "could not record a failed dispatch"),
    );
  }
}

export interface MessagePair {
  userId: string;
  conversationId: string;
  userMessageId: string;
  assistantMessageId: string;
  /** false (temporary chat) records the pair as skipped. */
  memoryEnabled: boolean;
}

/**
 * Idempotent per pair. `db` is the caller's transaction, so the row commits with the answer; the
 * caller dispatches a created `queued` row after its commit.
 */
export async function recordExtraction(
  db: Db,
  pair: MessagePair,
  runner: JobRunnerKind,
): Promise<{ extraction: Extraction; created: boolean }> {
  return createExtraction(db, {
    userId: pair.userId,
    conversationId: pair.conversationId,
    userMessageId: pair.userMessageId,
    assistantMessageId: pair.assistantMessageId,
    status: pair.memoryEnabled ? "queued" : "skipped",
    runner: pair.memoryEnabled ? runner : null,
  });
}

export function needsDispatch(recorded: { extraction: Extraction; created: boolean }): boolean {
  return recorded.created && recorded.extraction.status === "queued";
}

export async function enqueueExtraction(
  db: Db,
  pair: MessagePair,
  dispatcher: ExtractionDispatcher,
): Promise<{ extractionId: string; status: ExtractionStatus }> {
  const recorded = await recordExtraction(db, pair, dispatcher.kind);
  const { extraction } = recorded;
  if (needsDispatch(recorded)) runAfterResponse(() => dispatchExtraction(db, extraction, dispatcher));
  return { extractionId: extraction.id, status: extraction.status };
}

/** Resolves once each hand-over has settled: it runs outside any request, so there is nothing to defer to. */
export async function dispatchUndispatchedExtractions(
  db: Db,
  dispatcher: ExtractionDispatcher,
  { now, afterMs = extractionConfig.redispatchAfterMs }: { now: Date; afterMs?: number },
): Promise<number> {
  const rows = await listUndispatchedExtractions(db, {
    before: new Date(now.getTime() - afterMs),
    limit: extractionConfig.redispatchBatch,
  });
  await Promise.all(rows.map((row) => dispatchExtraction(db, row, dispatcher)));
  return rows.length;
}

/** failed → queued with a fresh attempt budget, or → skipped when memory is now off for the conversation. */
export async function retryExtraction(
  db: Db,
  { userId, assistantMessageId }: { userId: string; assistantMessageId: string },
  dispatcher: ExtractionDispatcher,
): Promise<Extraction> {
  const extraction = await requeueFailedExtraction(db, {
    userId,
    assistantMessageId,
    runner: dispatcher.kind,
    now: new Date(),
  });
  if (extraction.status === "queued") runAfterResponse(() => dispatchExtraction(db, extraction, dispatcher));
  return extraction;
}
