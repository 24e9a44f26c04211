/**
 * The debug view of one assistant message: what the model received (captured at the model
 * boundary), why each memory was or was not in it (the trace), and how the call went.
 */
import type { Db } from "@/db/client";
import { getMessage } from "@/db/queries/messages";
import { getPromptDebug } from "@/db/queries/prompt-debug";
import type { CapturedCall } from "@/lib/ai/capture";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";

export async function getDebugView(db: Db, { userId, messageId }: { userId: string; messageId: string }) {
  const [message, record] = await Promise.all([
    getMessage(db, { userId, messageId }),
    getPromptDebug(db, { userId, messageId }),
  ]);
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
    /** Every model call of this answer, exactly as the model received it. */
    modelInput: record.modelInput as CapturedCall[],
    trace: record.trace as ContextTrace | null,
  };
}

export type DebugView = Awaited<ReturnType<typeof getDebugView>>;
