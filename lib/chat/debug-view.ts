/**
 * The Inspect view of an answer: what the model received, why each memory was in it or not, and how the call went.
 * A deleted memory keeps its text for the undo window, then the record names it by id only (db/queries/redaction.ts).
 */
import { isAppError } from "@/core/errors";
import type { Db } from "@/db/client";
import { getConversation } from "@/db/queries/conversations";
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
  /** False: a near-miss, considered and not sent. */
  sent: boolean;
  /** Until when the record keeps its text (the undo window); null when it is gone already. */
  textKeptUntil: Date | null;
}

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
    dictation: (record.dictation ?? null) as DictationRecord | null,
    /** Every model call as received (less deleted memories' lines); an agent's tool calls between them. */
    modelInput: record.modelInput as (CapturedCall | AgentDebugStep)[],
    trace,
    redactedMemoryIds: trace?.redactedMemoryIds ?? [],
    deletedMemories,
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

/** The Inspect page's data; null when there is no debug record the user may see (→ 404). */
export async function getDebugPageData(db: Db, { userId, messageId }: { userId: string; messageId: string }) {
  const [view, extraction] = await Promise.all([
    orNull(() => getDebugView(db, { userId, messageId })),
    orNull(() => getMessageExtraction(db, { userId, assistantMessageId: messageId })),
  ]);
  return view ? { view, extraction } : null;
}

/**
 * An imported answer has no debug record (no model wrote it here); its Inspect page shows the exchange the
 * extraction read and what it stored. Null unless `messageId` is the user's imported answer with an extraction.
 */
export async function getImportedExchangeData(db: Db, { userId, messageId }: { userId: string; messageId: string }) {
  const extraction = await orNull(() => getMessageExtraction(db, { userId, assistantMessageId: messageId }));
  if (!extraction) return null;
  const [conversation, question, answer] = await Promise.all([
    getConversation(db, { userId, conversationId: extraction.conversationId }),
    getMessage(db, { userId, messageId: extraction.userMessageId }),
    getMessage(db, { userId, messageId: extraction.assistantMessageId }),
  ]);
  if (!conversation.importedFrom) return null;
  return {
    conversation: { id: conversation.id, title: conversation.title, importedFrom: conversation.importedFrom },
    question: { id: question.id, content: question.content, createdAt: question.createdAt },
    answer: { id: answer.id, content: answer.content, createdAt: answer.createdAt },
    extraction,
  };
}
