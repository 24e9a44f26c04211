import { AppError, notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { listMessages, type Message } from "@/db/queries/messages";
import type { HistoryMessage } from "@/lib/memory/retrieval/prompt";

/** Messages that reach the model as history: what was said, including answers the user stopped. */
export function toHistory(messages: readonly Message[]): HistoryMessage[] {
  return messages
    .filter((m) => (m.role === "user" || m.role === "assistant") && m.status !== "error" && m.content.trim() !== "")
    .map((m) => ({ id: m.id, role: m.role as "user" | "assistant", content: m.content }));
}

/** The conversation's history as the next chat turn sends it to the model (oldest first). */
export async function loadHistory(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<HistoryMessage[]> {
  return toHistory(await listMessages(db, { userId, conversationId }));
}

export interface RetryPlan {
  /** The user message to answer again. */
  userMessage: Message;
  /** Everything before it: the history of the new answer. */
  earlier: Message[];
}

/**
 * Checks that `assistantMessageId` is the conversation's latest message, an answer to a user
 * message, and returns that user message and what came before it (messages oldest first).
 */
export function planRetry(messages: readonly Message[], assistantMessageId: string): RetryPlan {
  const index = messages.findIndex((m) => m.id === assistantMessageId && m.role === "assistant");
  if (index < 0) throw notFound("message");
  const userMessage = messages[index - 1];
  if (index !== messages.length - 1 || userMessage?.role !== "user") {
    throw new AppError("conflict:not_latest_answer", "Only the latest answer of a conversation can be retried");
  }
  return { userMessage, earlier: messages.slice(0, index - 1) };
}

export interface EditPlan {
  /** The user message being edited and its answer, if any: deleted, then replaced. */
  replaced: Message[];
  /** Everything before the edited message: the history of the new answer. */
  earlier: Message[];
}

/**
 * Checks that `userMessageId` is the conversation's latest user message (followed by nothing, or
 * by its one answer), and returns it with its answer and what came before (messages oldest first).
 */
export function planEdit(messages: readonly Message[], userMessageId: string): EditPlan {
  const index = messages.findIndex((m) => m.id === userMessageId && m.role === "user");
  if (index < 0) throw notFound("message");
  const after = messages.slice(index + 1);
  if (after.length > 1 || (after[0] !== undefined && after[0].role !== "assistant")) {
    throw new AppError("conflict:not_latest_message", "Only the latest message of a conversation can be edited");
  }
  return { replaced: messages.slice(index), earlier: messages.slice(0, index) };
}
