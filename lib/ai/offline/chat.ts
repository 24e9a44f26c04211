/**
 * The offline model's chat replies. The only knowledge it has is what the prompt hands it:
 * the memory lines of the system prompt (each starting with formatterConfig.bullet) and the
 * user's messages. It answers the newest user message from the memories that relate to it,
 * addressed to the user ("you prefer green tea"), and otherwise says plainly that it has
 * nothing relevant and is Lifeline's offline model.
 */

import { formatterConfig } from "@/core/config";
import { truncateChars } from "@/core/text";
import { cosineSimilarity, embedOffline } from "./embedder";
import { extractMemoriesOffline } from "./extractor";
import { toSecondPerson } from "./grammatical-person";
import { contentStems } from "./text-features";

/** A memory counts as relevant at this offline-embedding similarity, or when it shares a content word. */
const RELEVANCE_THRESHOLD = 0.2;
const MAX_MEMORIES_IN_REPLY = 3;
/** "What do you know about me?" is answered with up to this many memories, in prompt order. */
const MAX_MEMORIES_FOR_OVERVIEW = 5;
const MAX_QUOTE_CHARS = 120;
/** The formatter's `title: content` prefix: a short title without a colon, then ": ". */
const TITLE_PREFIX = new RegExp(`^[^:]{1,${formatterConfig.maxTitleChars - 1}}: `);
const OVERVIEW_QUESTION =
  /\b(?:(?:what|anything) (?:do|did) you (?:know|remember)|what have i (?:told|shared with) you|tell me about (?:me|myself)|about me)\b/i;
const GREETING_ONLY = /^(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening))(?: there)?[\s!.,]*$/i;
const CURRENT_DATE = /\b(?:current date|today(?:'s date)?(?: is)?)\s*:?\s*(\d{4}-\d{2}-\d{2})\b/i;

const OFFLINE_NOTICE =
  "I'm Lifeline's offline model (no API key is configured), so I can only answer from what you've told me.";

export interface OfflineChatInput {
  /** All system messages of the prompt, joined. */
  system: string;
  /** The newest user message. */
  userMessage: string;
}

/** A memory line of the system prompt: the full line (for matching) and its content (for the reply). */
interface MemoryLine {
  line: string;
  content: string;
}

/** The memory lines of a system prompt: every line that starts with the formatter's bullet. */
export function memoryLinesOf(system: string): MemoryLine[] {
  return system
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith(formatterConfig.bullet.trim()))
    .map((line) => line.slice(formatterConfig.bullet.trim().length).trim())
    .filter((line) => line.length > 0)
    .map((line) => ({ line, content: line.replace(TITLE_PREFIX, "") }));
}

/** Memories related to the message, most similar first (prompt order breaks ties), at most three. */
function relevantMemories(memories: MemoryLine[], message: string): MemoryLine[] {
  if (OVERVIEW_QUESTION.test(message)) return memories.slice(0, MAX_MEMORIES_FOR_OVERVIEW);
  const query = embedOffline(message);
  const queryStems = contentStems(message);
  return memories
    .map((memory, order) => {
      const similarity = cosineSimilarity(query, embedOffline(memory.line));
      const sharesWord = [...contentStems(memory.line)].some((stem) => queryStems.has(stem));
      return { memory, order, similarity, relevant: sharesWord || similarity >= RELEVANCE_THRESHOLD };
    })
    .filter((scored) => scored.relevant)
    .sort((a, b) => b.similarity - a.similarity || a.order - b.order)
    .slice(0, MAX_MEMORIES_IN_REPLY)
    .map((scored) => scored.memory);
}

/** "a", "a and b", "a, b, and c". */
function joinPhrases(phrases: string[]): string {
  if (phrases.length <= 2) return phrases.join(" and ");
  return `${phrases.slice(0, -1).join(", ")}, and ${phrases.at(-1)}`;
}

/** Ends a sentence with a period unless it already ends in punctuation (e.g. a truncated "..."). */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

function quote(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return `"${truncateChars(oneLine, MAX_QUOTE_CHARS)}"`;
}

/** A memory as a phrase addressed to the user; one that cannot be rewritten safely is quoted. */
function phrase(memory: string): string {
  return toSecondPerson(memory) ?? `you told me ${quote(memory)}`;
}

function todayFrom(system: string): string {
  return CURRENT_DATE.exec(system)?.[1] ?? new Date().toISOString().slice(0, 10);
}

/** The reply to the newest user message. Deterministic for a given prompt. */
export function composeOfflineReply({ system, userMessage }: OfflineChatInput): string {
  const memories = relevantMemories(memoryLinesOf(system), userMessage);
  if (memories.length > 0) {
    return sentence(`From what you've told me, ${joinPhrases(memories.map((memory) => phrase(memory.content)))}`);
  }
  if (GREETING_ONLY.test(userMessage.trim())) {
    return `Hello! ${OFFLINE_NOTICE} Tell me about yourself, or ask me about something you've shared before.`;
  }
  const stated = extractMemoriesOffline({ currentDate: todayFrom(system), userMessage }).memories;
  const acknowledgement =
    stated.length > 0
      ? `Thanks for telling me: ${joinPhrases(stated.map((memory) => phrase(memory.content)))}.`
      : `You ${userMessage.trim().endsWith("?") ? "asked" : "said"}: ${quote(userMessage)}.`;
  return `${acknowledgement} I don't have any memories related to this yet. ${OFFLINE_NOTICE}`;
}
