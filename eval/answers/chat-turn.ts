/**
 * The answer evaluation's one seam into Lifeline's chat turn (`runChatTurn`). The pair's extraction
 * is not run (every question's memories must stay identical): its row is marked failed with the reason.
 */
import type { Logger } from "@/core/logger";
import type { Db } from "@/db/client";
import { createConversation } from "@/db/queries/conversations";
import { markExtractionFailed } from "@/db/queries/extractions";
import { createMessages, listMessages } from "@/db/queries/messages";
import { getPromptDebug } from "@/db/queries/prompt-debug";
import type { AiRegistry } from "@/lib/ai/registry";
import { runChatTurn } from "@/lib/chat/turn";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import type { ExtractionDispatcher } from "@/lib/jobs/extraction-queue";
import type { AssemblyConfig } from "@/lib/memory/retrieval/assembly-config";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import type { ChatBody } from "@/lib/validation/chat";

export const NOT_EXTRACTED =
  "not run: the answer evaluation does not extract its questions, so every question sees the same memories";

export interface Ask {
  userId: string;
  title: string;
  message: string;
  memoryEnabled: boolean;
  history?: readonly string[];
  assembly?: AssemblyConfig;
}

export interface AskedTurn {
  conversationId: string;
  assistantMessageId: string;
  answer: string;
  status: string;
  error: string | null;
  /** Null when the model reported none. */
  inputTokens: number | null;
  outputTokens: number | null;
  /** The prompt as Lifeline's tokenizer counted it (system with memories, history, question). */
  promptTokens: number;
  memoryLines: number;
  retrievalStatus: string;
  turnMs: number;
}

export async function askThroughChatTurn(db: Db, ai: AiRegistry, ask: Ask, log: Logger): Promise<AskedTurn> {
  const conversation = await createConversation(db, {
    userId: ask.userId,
    title: ask.title,
    memoryEnabled: ask.memoryEnabled,
  });
  if (ask.history?.length) {
    await createMessages(db, {
      userId: ask.userId,
      conversationId: conversation.id,
      messages: ask.history.map((content) => ({
        role: "user" as const,
        content,
        parts: [{ type: "text", text: content }],
      })),
    });
  }
  const handedOver: string[] = [];
  const dispatcher: ExtractionDispatcher = {
    kind: "in-process",
    dispatch: async ({ extractionId }) => {
      handedOver.push(extractionId);
    },
  };
  const body: ChatBody = { conversationId: conversation.id, message: ask.message };
  const started = performance.now();
  const response = await runChatTurn(db, ai, {
    userId: ask.userId,
    body,
    signal: new AbortController().signal,
    log,
    dispatcher,
    ...(ask.assembly ? { assembly: ask.assembly } : {}),
  });
  // The stream ends after the turn's onEnd has saved the answer and its debug record.
  await response.text();
  const turnMs = performance.now() - started;
  await afterResponseIdle();
  for (const extractionId of handedOver) {
    await markExtractionFailed(db, { extractionId, error: NOT_EXTRACTED, now: new Date() });
  }

  const answer = (await listMessages(db, { userId: ask.userId, conversationId: conversation.id })).findLast(
    (message) => message.role === "assistant",
  );
  if (!answer || answer.status === "streaming") throw new Error(`the chat turn left no settled answer (${ask.title})`);
  const record = await getPromptDebug(db, { userId: ask.userId, messageId: answer.id });
  const trace = record.trace as ContextTrace;
  return {
    conversationId: conversation.id,
    assistantMessageId: answer.id,
    answer: answer.content,
    status: answer.status,
    error: answer.error,
    inputTokens: record.inputTokens,
    outputTokens: record.outputTokens,
    promptTokens: trace.tokens.total,
    memoryLines: trace.memoryLines.length,
    retrievalStatus: record.retrievalStatus,
    turnMs,
  };
}
