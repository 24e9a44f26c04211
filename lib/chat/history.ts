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

/** The next turn's history, oldest first: the current branch only, never another version's messages. */
export async function loadHistory(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<HistoryMessage[]> {
  return toHistory(await listBranch(db, { userId, conversationId, limit: promptConfig.historyWindow }));
}

/** The branch down to `messageId` (the user's, of this conversation, else 404), within the history window. */
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
  userMessage: Message;
  earlier: Message[];
}

/** Regenerating any answer: its user message is asked again, with the branch above it (loadBranchThrough's). */
export function planRetry(branch: readonly Message[], assistantMessageId: string): RetryPlan {
  const answer = branch.at(-1);
  if (answer?.id !== assistantMessageId || answer.role !== "assistant") throw notFound("message");
  const userMessage = branch.at(-2);
  if (userMessage?.role !== "user" || answer.parentMessageId !== userMessage.id) {
    throw new AppError("conflict:not_an_answer", "This message answers no user message: there is nothing to ask again");
  }
  return { userMessage, earlier: branch.slice(0, -2) };
}

/** A new message after the answer the user sees, `parentMessageId`; another message than an answer → 404. */
export function planContinue(branch: readonly Message[], parentMessageId: string): Message[] {
  const parent = branch.at(-1);
  if (parent?.id !== parentMessageId || parent.role !== "assistant") throw notFound("message");
  return branch.slice(-promptConfig.historyWindow);
}

export interface EditPlan {
  parentMessageId: string | null;
  earlier: Message[];
}

/** Editing any user message: the new text forks the conversation under the same parent; nothing is deleted. */
export function planEdit(branch: readonly Message[], userMessageId: string): EditPlan {
  const edited = branch.at(-1);
  if (edited?.id !== userMessageId || edited.role !== "user") throw notFound("message");
  return { parentMessageId: edited.parentMessageId, earlier: branch.slice(0, -1) };
}
