/**
 * The extraction outbox. The pair's extraction row (`queued`, or `skipped` with memory off) is
 * written in the same transaction that saves the answer as final (recordExtraction, called by
 * lib/chat/settle.ts and lib/chat/interrupted.ts inside theirs); only after the commit is the job
 * handed to the configured runner — Inngest when a server is configured, else the in-process
 * runner (lib/jobs/runner-kind.ts). A process that stops in between leaves the row `queued`, and
 * the outbox sweep (dispatchUndispatchedExtractions: at start, every minute on a long-lived
 * server, and as the Inngest `sweeps` function) hands over every row queued longer than
 * extractionConfig.redispatchAfterMs. The answer never waits for extraction, and a dispatch
 * failure never reaches it: it is written on the row (status failed, last_error) where the user
 * sees it and can retry.
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
  /** Hands the job over; rejects when it could not be (the caller records that on the row). */
  dispatch(job: ExtractionJob & { queuedAt: Date }): Promise<void>;
}

/**
 * Sends `lifeline/message-pair.completed`. The event id dedups a double send of one enqueue at
 * Inngest; a retry (new queued_at) is a new event.
 */
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

/**
 * Hands the queued row to `dispatcher`. Never throws: a failure marks the row failed with the
 * reason (unless the job has already moved on).
 */
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
  /** The conversation's memory setting: false (temporary chat) records the pair as skipped. */
  memoryEnabled: boolean;
}

/**
 * Writes the pair's extraction row — once: calling again for the same pair returns the existing
 * row (`created: false`) — with `db` the caller's transaction, so the row commits with the answer.
 * Dispatches nothing: the caller hands a created `queued` row over after its commit.
 * Throws only when the row cannot be written: a database error, or a pair that is not the
 * user's (AppError `not_found:message`).
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

/** Whether a row recordExtraction returned is one for the caller to hand over. */
export function needsDispatch(recorded: { extraction: Extraction; created: boolean }): boolean {
  return recorded.created && recorded.extraction.status === "queued";
}

/**
 * Records the pair's extraction (recordExtraction, on its own) and, when a new row is queued,
 * dispatches it after the response. Returns the row's status (`queued` or `skipped` for a new row).
 */
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

/**
 * The outbox sweep: hands every row queued longer than `afterMs` without an attempt since (at
 * most extractionConfig.redispatchBatch, oldest first) to `dispatcher`, and resolves once each
 * hand-over has settled (it runs outside any request: nothing to defer to). Returns how many.
 */
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

/**
 * The user's retry of the failed extraction of the pair answered by `assistantMessageId`:
 * failed → queued (a fresh attempt budget), dispatched after the response like a new one — or
 * failed → skipped, dispatching nothing, when memory is now off for the conversation.
 * 404 for a missing or foreign message, 409 when its extraction is not failed.
 */
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
