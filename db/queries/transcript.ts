/** Every version of every message; lib/chat/transcript.ts keeps the current branch and reads the trace. */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { answerRatings, memoryExtractions, messages, promptDebug } from "@/db/schema";
import { getConversation } from "./conversations";
import { messageColumns } from "./messages";

export async function listTranscriptRows(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
) {
  const { currentMessageId } = await getConversation(db, { userId, conversationId });
  const rows = await db
    .select({
      message: messageColumns,
      debug: {
        modelId: promptDebug.modelId,
        provider: promptDebug.provider,
        latencyMs: promptDebug.latencyMs,
        timeToFirstTokenMs: promptDebug.timeToFirstTokenMs,
        totalTokens: promptDebug.totalTokens,
        retrievalStatus: promptDebug.retrievalStatus,
        trace: promptDebug.trace,
      },
      extraction: {
        id: memoryExtractions.id,
        status: memoryExtractions.status,
        memoryIds: memoryExtractions.memoryIds,
        // As updatedCount (lib/jobs/extraction-view.ts): the memories its decisions updated in place.
        memoriesUpdated: sql<number>`(SELECT count(*)::int FROM jsonb_array_elements(
          CASE WHEN jsonb_typeof(${memoryExtractions.decisions}) = 'array' THEN ${memoryExtractions.decisions} ELSE '[]'::jsonb END
        ) AS d WHERE d->>'action' = 'update' AND d->>'memoryId' IS NOT NULL)`,
        lastError: memoryExtractions.lastError,
        attempts: memoryExtractions.attempts,
      },
      rating: { rating: answerRatings.rating, reason: answerRatings.reason },
    })
    .from(messages)
    .leftJoin(promptDebug, and(eq(promptDebug.messageId, messages.id), eq(promptDebug.userId, userId)))
    .leftJoin(
      memoryExtractions,
      and(eq(memoryExtractions.assistantMessageId, messages.id), eq(memoryExtractions.userId, userId)),
    )
    .leftJoin(answerRatings, and(eq(answerRatings.messageId, messages.id), eq(answerRatings.userId, userId)))
    .where(and(eq(messages.conversationId, conversationId), eq(messages.userId, userId)))
    .orderBy(asc(messages.createdAt), asc(messages.role));

  return {
    currentMessageId,
    rows: rows.map(({ message, debug, extraction, rating }) => ({
      ...message,
      debug: debug?.modelId ? debug : null,
      extraction: extraction?.id ? extraction : null,
      rating: rating?.rating ? rating : null,
    })),
  };
}
