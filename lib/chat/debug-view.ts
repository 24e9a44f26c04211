/**
 * The debug view of one assistant message: what the model received (captured at the model
 * boundary), why each memory was or was not in it (the trace), and how the call went.
 *
 * A memory deleted after the answer keeps its text here for the undo window, then appears by id
 * only: the sweep redacted its text from the stored record (db/queries/redaction.ts), and
 * `redactedMemoryIds` says which memories were redacted, so the view can say "deleted memory" where
 * the model did receive a text. `deletedMemories` says which of the record's memories are deleted
 * now, whether each was sent or a near-miss, and until when the record keeps its text.
 */
import { isAppError } from "@/core/errors";
import type { Db } from "@/db/client";
import { listMemoriesByIds } from "@/db/queries/memories";
import { getMessage } from "@/db/queries/messages";
import { getPromptDebug } from "@/db/queries/prompt-debug";
import { storedRating } from "@/db/queries/ratings";
import { traceMemoryIds, validMemoryIds } from "@/db/queries/redaction";
import type { AgentDebugStep } from "@/lib/agent/recorder";
import type { CapturedCall } from "@/lib/ai/capture";
import { getMessageExtraction } from "@/lib/jobs/extraction-view";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import type { DictationRecord } from "./dictation";
import { sentMemories } from "./transcript";

export interface DeletedMemoryNote {
  memoryId: string;
  /** Its line was in the prompt or a memory tool returned it; false: a near-miss, considered and not sent. */
  sent: boolean;
  /** Until when this record keeps its text (the undo window); null when the text is gone already. */
  textKeptUntil: Date | null;
}

/** The record's memories that are deleted now (in the trash, or erased), in the trace's order. */
async function deletedMemoriesOf(db: Db, userId: string, trace: ContextTrace | null): Promise<DeletedMemoryNote[]> {
  const ids = validMemoryIds(traceMemoryIds(trace));
  if (ids.length === 0) return [];
  const sent = new Set(sentMemories(trace).map((memory) => memory.memoryId));
  const live = new Map((await listMemoriesByIds(db, { userId, ids })).map((memory) => [memory.id, memory]));
  return ids.flatMap((memoryId) => {
    const memory = live.get(memoryId);
    if (memory && memory.status !== "deleted") return [];
    return [{ memoryId, sent: sent.has(memoryId), textKeptUntil: memory?.redactAt ?? null }];
  });
}

export async function getDebugView(db: Db, { userId, messageId }: { userId: string; messageId: string }) {
  const [message, record, rating] = await Promise.all([
    getMessage(db, { userId, messageId }),
    getPromptDebug(db, { userId, messageId }),
    storedRating(db, { userId, messageId }),
  ]);
  const trace = record.trace as ContextTrace | null;
  const deletedMemories = await deletedMemoriesOf(db, userId, trace);
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
    /** Memories whose text was redacted from this record (deleted since; some may have been restored after). */
    redactedMemoryIds: trace?.redactedMemoryIds ?? [],
    deletedMemories,
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
