/**
 * The offline model's chat replies. The only knowledge it has is what the prompt hands it:
 * the memory lines of the system prompt (each starting with formatterConfig.bullet), the user's
 * messages, its own earlier answers, and the results of the memory tools it called. It answers
 * the newest user message from the memories that relate to it, addressed to the user ("you
 * prefer green tea"). Its replies never contradict what it received:
 * - memories were sent but none relates to the message: it says so and names what it does know,
 *   never "I don't have any memories";
 * - memory is off (the system prompt says so, MEMORY_OFF_NOTE): it never thanks the user as if
 *   it saved something;
 * - it says it is the offline model once per conversation: not again when one of its earlier
 *   answers in the prompt already did.
 * With the memory tools offered, an overview question ("what do you remember about me?", "what
 * are my goals?") is answered in two steps: a list_memories call (decideMemoryToolCall), then an
 * answer listing what the tool returned (composeToolAnswer).
 */

import { formatterConfig } from "@/core/config";
import { capitalize, truncateChars } from "@/core/text";
import type { MemoryType } from "@/db/schema";
import { MEMORY_OFF_NOTE } from "@/lib/memory/retrieval/prompt";
import { LIST_MEMORIES, type MemoryToolOutput } from "@/lib/memory/retrieval/tool-contract";
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
  /** The assistant's earlier answers in the prompt (its history), oldest first. */
  assistantMessages?: readonly string[];
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

/** The offline notice, unless an earlier answer in the prompt already said it (once per conversation). */
function noticeFor(assistantMessages: readonly string[] | undefined): string {
  return assistantMessages?.some((message) => message.includes(OFFLINE_NOTICE)) ? "" : ` ${OFFLINE_NOTICE}`;
}

/** The reply to the newest user message. Deterministic for a given prompt. */
export function composeOfflineReply({ system, userMessage, assistantMessages }: OfflineChatInput): string {
  const lines = memoryLinesOf(system);
  const memories = relevantMemories(lines, userMessage);
  if (memories.length > 0) {
    return sentence(`From what you've told me, ${joinPhrases(memories.map((memory) => phrase(memory.content)))}`);
  }
  const notice = noticeFor(assistantMessages);
  const memoryOff = system.includes(MEMORY_OFF_NOTE);
  if (GREETING_ONLY.test(userMessage.trim())) {
    return memoryOff
      ? `Hello!${notice} Memory is off for this chat, so I won't remember what you tell me here.`
      : `Hello!${notice} Tell me about yourself, or ask me about something you've shared before.`;
  }
  const youSaid = `You ${userMessage.trim().endsWith("?") ? "asked" : "said"}: ${quote(userMessage)}.`;
  if (memoryOff) {
    return `${youSaid} Memory is off for this chat: I can't see what you've told me elsewhere, and I won't remember this.${notice}`;
  }
  const stated = extractMemoriesOffline({ currentDate: todayFrom(system), userMessage }).memories;
  const acknowledgement =
    stated.length > 0
      ? `Thanks for telling me: ${joinPhrases(stated.map((memory) => phrase(memory.content)))}.`
      : youSaid;
  if (lines.length > 0) {
    // Memories were sent: the reply uses them rather than claiming to have none.
    const known = joinPhrases(lines.slice(0, MAX_MEMORIES_IN_REPLY).map((memory) => phrase(memory.content)));
    const bridge =
      stated.length > 0
        ? "I also remember that"
        : "Nothing you've told me answers this directly, but I do remember that";
    return `${acknowledgement} ${sentence(`${bridge} ${known}`)}${notice}`;
  }
  return `${acknowledgement} I don't have any memories related to this yet.${notice}`;
}

/** Overview questions about one type of memory, and the type list_memories is asked for. */
const TYPED_OVERVIEW: readonly { pattern: RegExp; type: MemoryType; label: string }[] = [
  { pattern: /\b(?:what are|list|tell me) my (?:goals|aims|ambitions)\b/i, type: "goal", label: "goals" },
  {
    pattern: /\b(?:what are|list|tell me) my (?:preferences|likes)\b|\bwhat do i (?:like|prefer)\s*\??$/i,
    type: "preference",
    label: "preferences",
  },
  {
    pattern:
      /\b(?:what are|list|tell me) my (?:deadlines|tasks|to-?dos|reminders)\b|\bwhat do i (?:need|have) to do\b/i,
    type: "actionable",
    label: "tasks and deadlines",
  },
];
/** A question about the user as a whole: no single memory matches it, so the model lists them. */
const WHOLE_OVERVIEW =
  /\b(?:(?:what|anything) (?:else )?(?:do|did) you (?:know|remember) about me|what have i (?:told|shared with) you|tell me (?:what you know )?about (?:me|myself))\b/i;

export interface MemoryToolCall {
  toolName: typeof LIST_MEMORIES;
  input: { type?: MemoryType };
}

/**
 * Whether to look memories up before answering: an overview question, with list_memories among
 * the offered tools, gets a list_memories call (of the matching type, or of all). Anything else
 * is answered from the prompt.
 */
export function decideMemoryToolCall(userMessage: string, toolNames: readonly string[]): MemoryToolCall | null {
  if (!toolNames.includes(LIST_MEMORIES)) return null;
  const typed = TYPED_OVERVIEW.find((entry) => entry.pattern.test(userMessage));
  if (typed) return { toolName: LIST_MEMORIES, input: { type: typed.type } };
  return WHOLE_OVERVIEW.test(userMessage) ? { toolName: LIST_MEMORIES, input: {} } : null;
}

/** A memory tool's result as the model received it (the tool message of the prompt). */
export interface ToolResultInput {
  toolName: string;
  input: { type?: string } | undefined;
  /** The tool's output; null when the call failed (the error text is in `error`). */
  output: MemoryToolOutput | null;
  error?: string;
}

/** The answer after the memory tools ran: what they returned, as a list, or plainly that nothing was found. */
export function composeToolAnswer({
  results,
  assistantMessages,
}: {
  results: readonly ToolResultInput[];
  assistantMessages?: readonly string[];
}): string {
  const failed = results.find((result) => result.output === null);
  const seen = new Set<string>();
  const memories = results
    .flatMap((result) => result.output?.memories ?? [])
    .filter((memory) => !seen.has(memory.id) && seen.add(memory.id));
  const type = results.find((result) => result.input?.type)?.input?.type;
  const label = TYPED_OVERVIEW.find((entry) => entry.type === type)?.label;
  if (memories.length === 0) {
    const why = failed ? ` (looking them up failed: ${failed.error ?? "unknown error"})` : "";
    return label
      ? `I don't have any ${label} saved for you yet${why}.${noticeFor(assistantMessages)}`
      : `I don't have any memories about you saved yet${why}. Tell me about yourself and I'll remember it.${noticeFor(assistantMessages)}`;
  }
  const intro = label ? `Here are your ${label} I have saved:` : "Here's what I remember about you:";
  const items = memories.map((memory) => `- ${capitalize(sentence(phrase(memory.content)))}`);
  return [intro, "", ...items].join("\n");
}
