/**
 * Auto-title: after the first exchange (AUTO_TITLE_AFTER_MESSAGES messages: the question and its
 * answer), while the conversation still has the default title, the extraction model names it
 * (≤ 8 words, ≤ 100 chars). Runs after the response; a title the user set is never overwritten.
 * The chat view refreshes the sidebar until the title arrives (components/chat/chat.tsx).
 */

import { generateText, Output } from "ai";
import { modelCallConfig } from "@/core/config";
import { takeChars } from "@/core/text";
import type { Db } from "@/db/client";
import { DEFAULT_CONVERSATION_TITLE, getConversation, setTitleIfDefault } from "@/db/queries/conversations";
import { listMessages } from "@/db/queries/messages";
import type { AiRegistry } from "@/lib/ai/registry";
import { buildTitlePrompt } from "@/lib/memory/extraction/prompt";
import { handoffOptions, TITLE_OUTPUT_NAME, titleSchema } from "@/lib/memory/extraction/schema";
import { strictOutputSchema } from "@/lib/memory/extraction/strict-schema";

export const AUTO_TITLE_AFTER_MESSAGES = 2;
export const TITLE_MAX_WORDS = 8;
export const TITLE_MAX_CHARS = 100;

/**
 * A model's title → at most 8 words and 100 characters, without quotes or trailing punctuation.
 * Apostrophes inside a word stay ("I'm vegetarian", "Maya’s birthday"); quotes around words go.
 */
export function cleanTitle(raw: string): string {
  const words = raw
    .replace(/["“”`«»]/g, "")
    .replace(/(^|\s)['‘’]+|['‘’]+(?=\s|$)/gu, "$1")
    .replace(/\s+/g, " ")
    .trim()
    .split(" ")
    .slice(0, TITLE_MAX_WORDS);
  let title = words.join(" ");
  if (title.length > TITLE_MAX_CHARS) title = takeChars(title, TITLE_MAX_CHARS).trimEnd();
  return title.replace(/[\s.,;:!?-]+$/, "");
}

/** Titles the conversation when it is due; returns the new title, or null when nothing changed. */
export async function maybeTitleConversation(
  db: Db,
  ai: AiRegistry,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<string | null> {
  const conversation = await getConversation(db, { userId, conversationId });
  if (conversation.title !== DEFAULT_CONVERSATION_TITLE) return null;
  const messages = await listMessages(db, { userId, conversationId });
  if (messages.length < AUTO_TITLE_AFTER_MESSAGES) return null;
  const opening = messages
    .filter((m) => (m.role === "user" || m.role === "assistant") && m.content.trim() !== "")
    .slice(0, 4)
    .map((m) => ({ role: m.role as "user" | "assistant", content: takeChars(m.content, 2000) }));
  const { system, prompt } = buildTitlePrompt(opening);
  const { output } = await generateText({
    model: ai.getExtractionModel(),
    instructions: system,
    prompt,
    temperature: 0.2,
    timeout: modelCallConfig.structuredTimeoutMs,
    output: Output.object({ schema: strictOutputSchema(titleSchema), name: TITLE_OUTPUT_NAME }),
    providerOptions: handoffOptions({ task: TITLE_OUTPUT_NAME, input: opening }),
  });
  const title = cleanTitle(output.title);
  if (!title || title === DEFAULT_CONVERSATION_TITLE) return null;
  const changed = await setTitleIfDefault(db, { userId, conversationId, title });
  return changed ? title : null;
}
