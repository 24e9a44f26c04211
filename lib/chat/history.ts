import { promptConfig } from "@/core/config";
import { AppError, notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { listBranch, type Message } from "@/db/queries/messages";
import type { HistoryMessage } from "@/lib/memory/retrieval/prompt";

/** Messages that reach the model as history: what was said, including answers the user stopped. */
export function toHistory(messages: readonly (Message & { contentTokens?: number | null })[]): HistoryMessage[] {
  return messages
    .filter((m) => (m.role === "user" || m.role === "assistant") && m.status !== "error" && m.content.trim() !== "")
    .map((m) => ({
      id: m.id,
      role: m.role as "user" | "assistant",
      content: m.content,
      tokens: m.contentTokens ?? null,
    }));
}

/**
 * The history the next chat turn sends to the model (oldest first): the conversation's current
 * branch only — never another version's messages (lib/chat/branch.ts).
 */
export async function loadHistory(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<HistoryMessage[]> {
  return toHistory(await listBranch(db, { userId, conversationId, limit: promptConfig.historyWindow }));
}

/**
 * The branch down to `messageId` (a message of the user's conversation; else 404
 * `not_found:message`), within the history window plus the turn's own messages.
 */
export async function loadBranchThrough(
  db: Db,
  { userId, conversationId, messageId }: { userId: string; conversationId: string; messageId: string },
): Promise<Message[]> {
  const branch = await listBranch(db, {
    userId,
    conversationId,
    throughId: messageId,
    limit: promptConfig.historyWindow + 2,
  });
  if (branch.at(-1)?.id !== messageId) throw notFound("message");
  return branch;
}

export interface RetryPlan {
  /** The user message to answer again: the new answer becomes another version of the old one. */
  userMessage: Message;
  /** The branch before it: the history of the new answer. */
  earlier: Message[];
}

/**
 * Regenerating answer `assistantMessageId`, any answer of the conversation: `branch` is the path
 * down to it (loadBranchThrough). Its user message is asked again, with the history above it.
 */
export function planRetry(branch: readonly Message[], assistantMessageId: string): RetryPlan {
  const answer = branch.at(-1);
  if (answer?.id !== assistantMessageId || answer.role !== "assistant") throw notFound("message");
  const userMessage = branch.at(-2);
  if (userMessage?.role !== "user" || answer.parentMessageId !== userMessage.id) {
    throw new AppError("conflict:not_an_answer", "This message answers no user message: there is nothing to ask again");
  }
  return { userMessage, earlier: branch.slice(0, -2) };
}

/**
 * A new message following answer `parentMessageId`, the last message of the branch the user sees:
 * `branch` is the path down to it (loadBranchThrough). Another message than an answer → 404.
 */
export function planContinue(branch: readonly Message[], parentMessageId: string): Message[] {
  const parent = branch.at(-1);
  if (parent?.id !== parentMessageId || parent.role !== "assistant") throw notFound("message");
  return branch.slice(-promptConfig.historyWindow);
}

export interface EditPlan {
  /** The edited message's parent: the new message becomes another version of it, under the same parent. */
  parentMessageId: string | null;
  /** The branch before the edited message: the history of the new answer. */
  earlier: Message[];
}

/**
 * Editing user message `userMessageId`, any of the conversation: `branch` is the path down to it
 * (loadBranchThrough). The new text forks the conversation there; nothing is deleted.
 */
export function planEdit(branch: readonly Message[], userMessageId: string): EditPlan {
  const edited = branch.at(-1);
  if (edited?.id !== userMessageId || edited.role !== "user") throw notFound("message");
  return { parentMessageId: edited.parentMessageId, earlier: branch.slice(0, -1) };
}
