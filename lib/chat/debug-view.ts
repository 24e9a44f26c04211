/**
 * The debug view of one assistant message: what the model received (captured at the model
 * boundary), why each memory was or was not in it (the trace), and how the call went.
 *
 * A memory deleted after the answer appears here by id only: the delete redacted its text from
 * the stored record (db/queries/redaction.ts), and `redactedMemoryIds` says which memories were
 * redacted, so the view can say "deleted memory" where the model did receive a text.
 */
import { isAppError } from "@/core/errors";
import type { Db } from "@/db/client";
import { getMessage } from "@/db/queries/messages";
import { getPromptDebug } from "@/db/queries/prompt-debug";
import { storedRating } from "@/db/queries/ratings";
import type { AgentDebugStep } from "@/lib/agent/recorder";
import type { CapturedCall } from "@/lib/ai/capture";
import { getMessageExtraction } from "@/lib/jobs/extraction-view";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import type { DictationRecord } from "./dictation";

export async function getDebugView(db: Db, { userId, messageId }: { userId: string; messageId: string }) {
  const [message, record, rating] = await Promise.all([
    getMessage(db, { userId, messageId }),
    getPromptDebug(db, { userId, messageId }),
    storedRating(db, { userId, messageId }),
  ]);
  const trace = record.trace as ContextTrace | null;
  return {
    messageId: message.id,
    conversationId: message.conversationId,
    answer: { content: message.content, status: message.status, error: message.error },
    createdAt: record.createdAt,
    model: { provider: record.provider, id: record.modelId },
    mode: record.mode,
    temperature: record.temperature,
    usage: { inputTokens: record.inputTokens, outputTokens: record.outputTokens, totalTokens: record.totalTokens },
    timings: { timeToFirstTokenMs: record.timeToFirstTokenMs, latencyMs: record.latencyMs },
    finishReason: record.finishReason,
    error: record.error,
    retrieval: { status: record.retrievalStatus, error: record.retrievalError },
    /** The question came from dictation: its transcription call, and whether it was edited. Null when typed. */
    dictation: (record.dictation ?? null) as DictationRecord | null,
    /**
     * Every model call of this answer, exactly as the model received it (less deleted memories'
     * lines); an agent answer's record also has its tool calls between them, in order.
     */
    modelInput: record.modelInput as (CapturedCall | AgentDebugStep)[],
    trace,
    /** Memories deleted since this answer: their text was redacted from this record. */
    redactedMemoryIds: trace?.redactedMemoryIds ?? [],
    /** The user's thumbs up or down on this answer, with their reason; null when not rated. */
    rating,
  };
}

export type DebugView = Awaited<ReturnType<typeof getDebugView>>;

/** Missing, foreign, not an answer, or no record yet: null. */
async function orNull<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (isAppError(error) && error.code.startsWith("not_found")) return null;
    throw error;
  }
}

/**
 * Everything the debug page shows (app/(app)/messages/[id]/debug): the debug view and the
 * extraction of the pair; null when there is no debug record the user may see (→ 404).
 */
export async function getDebugPageData(db: Db, { userId, messageId }: { userId: string; messageId: string }) {
  const [view, extraction] = await Promise.all([
    orNull(() => getDebugView(db, { userId, messageId })),
    orNull(() => getMessageExtraction(db, { userId, assistantMessageId: messageId })),
  ]);
  return view ? { view, extraction } : null;
}
