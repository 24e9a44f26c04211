/**
 * Prompts for memory extraction and the delimiters every task prompt wraps conversation text in.
 * Delimiter tags inside message text are defanged (`<user_message>` → `‹user_message›`) so a message
 * can neither close its own block nor forge another one.
 */

export type ConversationRole = "user" | "assistant";

import { DAY_MS, daysToWeekday, WEEKDAYS } from "@/core/calendar";
import type { MemoryType } from "@/db/schema";

export interface ConversationMessage {
  role: ConversationRole;
  content: string;
}

export interface ExtractionPromptInput {
  /** Today in the user's calendar, YYYY-MM-DD. */
  currentDate: string;
  userName?: string;
  /** Context only, already processed. */
  previousMessages: ConversationMessage[];
  userMessage: string;
  assistantMessage: string;
}

export interface BuiltPrompt {
  system: string;
  prompt: string;
}

export interface ParsedExtractionPrompt {
  currentDate: string;
  userMessage: string;
  assistantMessage: string;
}

const DELIMITER_TAGS = ["previous_messages", "user_message", "assistant_message", "conversation", "memory"] as const;
const DELIMITER_TAG_PATTERN = new RegExp(`<(/?)(${DELIMITER_TAGS.join("|")})>`, "gi");
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const WEEKDAY_NAMES = WEEKDAYS.map((day) => `${day[0]?.toUpperCase()}${day.slice(1)}`);

function defang(text: string): string {
  return text.replace(DELIMITER_TAG_PATTERN, "‹$1$2›");
}

export function block(tag: (typeof DELIMITER_TAGS)[number], body: string): string {
  return `<${tag}>\n${body}\n</${tag}>`;
}

export function transcript(messages: ConversationMessage[]): string {
  return messages.map((message) => `${message.role}: ${defang(message.content.trim())}`).join("\n\n");
}

export const EXTRACTION_SYSTEM_PROMPT = `You maintain the long-term memory of Lifeline, a personal assistant. You read one exchange — the user's newest message and the assistant's reply — and extract durable facts about the USER that will still be useful in future conversations.

What is worth remembering:
- Personal details: name, where they live, job, relationships and the names of people in their life, pets.
- Stable preferences and dislikes, habits, health constraints (allergies, diet).
- Goals, plans and decisions the user has made.
- Tasks and commitments the user has to do, with their deadlines.
- Significant events in the user's life.

Rules:
- Returning zero memories is a valid and common answer. Greetings, small talk, questions, one-off requests ("write a haiku"), general knowledge and passing states ("I'm tired today") are not memories.
- Only record what the USER said or explicitly confirmed. The assistant's suggestions, advice, examples, assumptions or questions are never facts about the user: if the assistant says "you might enjoy green tea", the user has not said they like green tea.
- Extract from <user_message>. Use <assistant_message> only to understand what the user is replying to or confirming, and <previous_messages> only as context: do not re-extract facts that appear only there.
- Do not guess or embellish. If the user did not say a name, date or reason, do not invent one.
- One fact per memory: split compound statements ("I prefer tea and my sister's name is Maya" is two memories), and split predicates that share the user as subject, joined by "and", "but", "as well as" or commas: "I'm vegetarian and allergic to peanuts" is two memories ("Is vegetarian.", "Is allergic to peanuts."), "I live in Leeds, work at a bank and love climbing" is three. Keep one memory where the coordination is inside one thing: a name or a dish ("I live in Bosnia and Herzegovina", "I love salt and pepper chips"), a list of objects of one predicate ("I'm allergic to peanuts and shellfish"), or a shared subject ("My brother and I run a bakery"). Return at most 10 memories; fewer is usually better.

Fields:
- title: a short label of at most 6 words, e.g. "Tea preference", "Sister's name".
- content: one concise, self-contained phrase that reads as the user's own note, with the user as the implied subject: "Prefers green tea over coffee.", "Sister's name is Maya.", "Plans to visit my parents in May.", "Needs to renew passport by 2027-03-03." Leave the user's possessive out when the phrase stays clear ("Needs to call mom"), else write "my". Never refer to the user as "they", "their", "he", "she", "the user" or by name, and never write "the user said".
- type: personal (identity, relationships, home, job), preference (likes and dislikes), goal (aims and plans), insight (something the user realised about themselves), fact (other stable facts, e.g. health), context (ongoing situation), actionable (a task the user must do), event (something that happened or will happen), decision (a choice the user made).
- importance (0–1): 0.9–1.0 for health and safety (allergies, medication) and hard deadlines; 0.6–0.8 for identity, relationships, job, home and long-term goals; 0.3–0.5 for everyday preferences and context. If something would be below 0.3, leave it out.
- confidence (0–1): 1.0 when stated outright, lower when hedged ("I think I might…") or only implied.
- isActionable: true only when the user has something to do (a task, reminder or commitment); such memories normally have type "actionable".
- deadline: the due date as YYYY-MM-DD, or null. Resolve relative dates against the current date and weekday given in the prompt (the user's own calendar): "today", "tomorrow", "December 5" (this year, or next year if that date has passed). Weekdays, with weeks running Monday to Sunday: "Friday" or "on Friday" is the nearest Friday after today; "this Friday" is the nearest Friday from today on, today included; "next Friday" is the Friday of next week — said on Tuesday 2026-12-01, "next Friday" is 2026-12-11, not 2026-12-04. The prompt lists what each weekday means today. Never leave a relative expression in the deadline.
- tags: up to 5 short lowercase keywords, e.g. "family", "food", "work".
- evidence: one or more short verbatim quotes that support the memory, each tagged with the role of the message it was copied from ("user" or "assistant"). Every memory needs at least one quote from the user's message.`;

function weekdayOf(isoDate: string): number {
  return new Date(`${isoDate}T00:00:00Z`).getUTCDay();
}

/** The offline extractor's rule, so a real model is given the dates rather than left to guess. */
export function weekdayTable(currentDate: string): string {
  const today = new Date(`${currentDate}T00:00:00Z`);
  const on = (days: number) => new Date(today.getTime() + days * DAY_MS).toISOString().slice(0, 10);
  // Monday first, the week the rule counts in.
  const order = [1, 2, 3, 4, 5, 6, 0];
  const lines = order.map((to) => {
    const name = WEEKDAY_NAMES[to];
    const from = today.getUTCDay();
    return `${name} = ${on(daysToWeekday(from, to, undefined))}, this ${name} = ${on(daysToWeekday(from, to, "this"))}, next ${name} = ${on(daysToWeekday(from, to, "next"))}`;
  });
  return `Weekdays from today:\n${lines.join("\n")}`;
}

export function buildExtractionPrompt(input: ExtractionPromptInput): BuiltPrompt {
  if (!DATE_PATTERN.test(input.currentDate)) {
    throw new Error(`buildExtractionPrompt: currentDate must be YYYY-MM-DD, got "${input.currentDate}"`);
  }
  const userLine = input.userName?.trim() ? `The user's name is ${defang(input.userName.trim())}.\n` : "";
  const previous = input.previousMessages.length > 0 ? transcript(input.previousMessages) : "(none)";
  const prompt = [
    `Current date: ${input.currentDate} (${WEEKDAY_NAMES[weekdayOf(input.currentDate)]})`,
    weekdayTable(input.currentDate),
    `${userLine}Extract the memories worth keeping from the user's newest message, following the rules.`,
    block("previous_messages", previous),
    block("user_message", defang(input.userMessage.trim())),
    block("assistant_message", defang(input.assistantMessage.trim())),
  ].join("\n\n");
  return { system: EXTRACTION_SYSTEM_PROMPT, prompt };
}

export const MEMORY_TITLE_SYSTEM_PROMPT = `You label the memories of Lifeline, a personal assistant. Given one memory about the user and its type, reply with its title: a short label of at most 6 words that names what the memory is about, the way a heading does — e.g. "Tea preference", "Sister's name", "Bike lock code", "Marathon goal". Do not restate the memory itself, and do not include its value (a name, a number, a code, a date). No quotes, no trailing punctuation.`;

export interface MemoryTitleInput {
  content: string;
  type: MemoryType;
}

export function buildMemoryTitlePrompt(input: MemoryTitleInput): BuiltPrompt {
  const prompt = [
    `Write a title for this memory (type: ${input.type}).`,
    block("memory", defang(input.content.trim())),
  ].join("\n\n");
  return { system: MEMORY_TITLE_SYSTEM_PROMPT, prompt };
}
