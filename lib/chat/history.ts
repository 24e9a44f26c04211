import type { Db } from "@/db/client";
import { listMessages, type Message } from "@/db/queries/messages";
import type { HistoryMessage } from "@/lib/memory/prompt";

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
