/** What the preview shows before anything is sent: counts, the date range, the extraction calls. */
import type { ImportedConversation, ImportedMessage } from "./types";

/** The exchanges extraction reads: each user message answered by the next message. */
export function exchangesOf(messages: ImportedMessage[]): { user: ImportedMessage; assistant: ImportedMessage }[] {
  const pairs: { user: ImportedMessage; assistant: ImportedMessage }[] = [];
  for (let i = 0; i + 1 < messages.length; i++) {
    const user = messages[i];
    const assistant = messages[i + 1];
    if (user?.role === "user" && assistant?.role === "assistant") pairs.push({ user, assistant });
  }
  return pairs;
}

export interface ExportSummary {
  conversations: number;
  messages: number;
  /** One extraction call per exchange (and a consolidation call per memory it finds). */
  extractionCalls: number;
  from: string | null;
  to: string | null;
}

export function summarize(conversations: ImportedConversation[]): ExportSummary {
  let messages = 0;
  let extractionCalls = 0;
  let from: string | null = null;
  let to: string | null = null;
  for (const conversation of conversations) {
    messages += conversation.messages.length;
    extractionCalls += exchangesOf(conversation.messages).length;
    for (const message of conversation.messages) {
      if (from === null || message.createdAt < from) from = message.createdAt;
      if (to === null || message.createdAt > to) to = message.createdAt;
    }
  }
  return { conversations: conversations.length, messages, extractionCalls, from, to };
}

/** The conversations with a message on or between the two calendar dates (YYYY-MM-DD, UTC), inclusive. */
export function inDateRange(
  conversations: ImportedConversation[],
  { from, to }: { from?: string; to?: string },
): ImportedConversation[] {
  return conversations.filter((conversation) =>
    conversation.messages.some((message) => {
      const day = message.createdAt.slice(0, 10);
      return (!from || day >= from) && (!to || day <= to);
    }),
  );
}
