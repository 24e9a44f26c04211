/** What the title job asks the extraction model, and the shape of its answer. */
import { z } from "zod";
import { type BuiltPrompt, block, type ConversationMessage, transcript } from "@/lib/memory/extraction/prompt";

/** `responseFormat.name` of the title call (the offline model dispatches on it). */
export const TITLE_OUTPUT_NAME = "conversation_title";

export const TITLE_SYSTEM_PROMPT = `You name conversations for the sidebar of Lifeline, a personal assistant. Given the opening of a conversation, reply with a short, specific title of at most 8 words that says what the conversation is about, in the language of the conversation. No quotes, no trailing punctuation, no emoji, and do not start with "Conversation about" or "Chat about".`;

export const titleSchema = z.object({
  title: z.string().min(1).max(100),
});

export type TitleResult = z.infer<typeof titleSchema>;

export function buildTitlePrompt(firstMessages: ConversationMessage[]): BuiltPrompt {
  const prompt = [
    "Write a title for this conversation.",
    block("conversation", firstMessages.length > 0 ? transcript(firstMessages) : "(empty)"),
  ].join("\n\n");
  return { system: TITLE_SYSTEM_PROMPT, prompt };
}
