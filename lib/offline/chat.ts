/**
 * The offline model's chat replies, from nothing but the prompt. It does not judge relevance again:
 * it cannot beat the retrieval that chose the memory lines, and a second opinion made it contradict
 * its prompt. Lines merely at hand (under UNMATCHED_MEMORIES_HEADING) count only for an overview
 * question; it says it is the offline model once per conversation.
 */

import { formatterConfig } from "@/core/config";
import { capitalize, truncateChars } from "@/core/text";
import type { MemoryType } from "@/db/schema";
import { LIST_MEMORIES, type MemoryToolOutput } from "@/lib/memory/retrieval/tool-contract";
import { cosineSimilarity, embedOffline } from "./embedder";
import { extractMemoriesOffline } from "./extractor";
import { toSecondPerson } from "./grammatical-person";
import { MEMORY_OFF_NOTE, UNMATCHED_MEMORIES_HEADING } from "./prompt-readers";
import { contentStems } from "./text-features";

/** Past the first, a matched memory joins the answer at this offline-embedding similarity, or when it shares a content word. */
const RELEVANCE_THRESHOLD = 0.2;
const MAX_MEMORIES_IN_REPLY = 3;
const MAX_MEMORIES_FOR_OVERVIEW = 5;
const MAX_QUOTE_CHARS = 120;
const TITLE_PREFIX = new RegExp(`^[^:]{1,${formatterConfig.maxTitleChars - 1}}: `);
const OVERVIEW_QUESTION =
  /\b(?:(?:what|anything) (?:do|did) you (?:know|remember)|what have i (?:told|shared with) you|tell me about (?:me|myself)|about me)\b/i;
/** The message speaks of the user: only then can a memory about them answer it without sharing a word. */
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|us|our|ours)\b/i;
const GREETING_ONLY = /^(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening))(?: there)?[\s!.,]*$/i;
const CURRENT_DATE = /\b(?:current date|today(?:'s date)?(?: is)?)\s*:?\s*(\d{4}-\d{2}-\d{2})\b/i;

const OFFLINE_NOTICE_OPENING = "I'm Lifeline's offline model";
const OFFLINE_NOTICE =
  "I'm Lifeline's offline model, so I can only answer from what you've told me; for other questions, whoever runs this Lifeline can connect a real model (Settings → For administrators).";

export interface OfflineChatInput {
  system: string;
  userMessage: string;
  assistantMessages?: readonly string[];
}

interface MemoryLine {
  line: string;
  content: string;
  /** Selected by retrieval for this message (false: under UNMATCHED_MEMORIES_HEADING). */
  matched: boolean;
}

export function memoryLinesOf(system: string): MemoryLine[] {
  const bullet = formatterConfig.bullet.trim();
  const lines: MemoryLine[] = [];
  let matched = true;
  for (const raw of system.split("\n")) {
    const line = raw.trim();
    if (line === UNMATCHED_MEMORIES_HEADING) matched = false;
    if (!line.startsWith(bullet)) continue;
    const text = line.slice(bullet.length).trim();
    if (text.length > 0) lines.push({ line: text, content: text.replace(TITLE_PREFIX, ""), matched });
  }
  return lines;
}

/**
 * The first matched line is used for a first-person message even without a shared word: this
 * embedder is weaker than retrieval's. A message not about the user is never answered from one
 * ("Are spiders insects?" / "Is allergic to peanuts" are 0.165 in wordvec-glove-v2, above the
 * retrieval threshold).
 */
function answeringMemories(memories: MemoryLine[], message: string): MemoryLine[] {
  if (OVERVIEW_QUESTION.test(message)) return memories.slice(0, MAX_MEMORIES_FOR_OVERVIEW);
  const aboutTheUser = FIRST_PERSON.test(message);
  const query = embedOffline(message);
  const queryStems = contentStems(message);
  return memories
    .filter((memory) => memory.matched)
    .map((memory, order) => {
      const similarity = cosineSimilarity(query, embedOffline(memory.line));
      const sharesWord = [...contentStems(memory.line)].some((stem) => queryStems.has(stem));
      return { memory, order, similarity, related: sharesWord || similarity >= RELEVANCE_THRESHOLD };
    })
    .sort((a, b) => Number(b.related) - Number(a.related) || b.similarity - a.similarity || a.order - b.order)
    .filter((scored, rank) => scored.related || (rank === 0 && aboutTheUser))
    .slice(0, MAX_MEMORIES_IN_REPLY)
    .map((scored) => scored.memory);
}

function joinPhrases(phrases: string[]): string {
  if (phrases.length <= 2) return phrases.join(" and ");
  return `${phrases.slice(0, -1).join(", ")}, and ${phrases.at(-1)}`;
}

function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

function quote(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return `"${truncateChars(oneLine, MAX_QUOTE_CHARS)}"`;
}

function phrase(memory: string): string {
  return toSecondPerson(memory) ?? `you told me ${quote(memory)}`;
}

function todayFrom(system: string): string {
  return CURRENT_DATE.exec(system)?.[1] ?? new Date().toISOString().slice(0, 10);
}

/** The offline notice, unless an earlier answer in the prompt already said it (once per conversation). */
function noticeFor(assistantMessages: readonly string[] | undefined): string {
  // Its opening, not the whole notice: an answer with an earlier wording of it counts too.
  const named = assistantMessages?.some((message) => message.includes(OFFLINE_NOTICE_OPENING));
  return named ? "" : ` ${OFFLINE_NOTICE}`;
}

function sameText(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/[.!]+$/, "")
    .trim()
    .toLowerCase();
}

/** Deterministic for a given prompt. */
export function composeOfflineReply({ system, userMessage, assistantMessages }: OfflineChatInput): string {
  const memoryOff = system.includes(MEMORY_OFF_NOTE);
  const notice = noticeFor(assistantMessages);
  if (GREETING_ONLY.test(userMessage.trim())) {
    return memoryOff
      ? `Hello!${notice} Memory is off for this chat, so I won't remember what you tell me here.`
      : `Hello!${notice} Tell me about yourself, or ask me about something you've shared before.`;
  }
  if (memoryOff) {
    const youSaid = `You ${userMessage.trim().endsWith("?") ? "asked" : "said"}: ${quote(userMessage)}.`;
    return `${youSaid} Memory is off for this chat: I can't see what you've told me elsewhere, and I won't remember this.${notice}`;
  }
  const stated = extractMemoriesOffline({ currentDate: todayFrom(system), userMessage }).memories;
  // A memory that only restates this message (saved from it before: a regenerated answer, a resent
  // message) is what the user just said, not something remembered besides it.
  const said = new Set(stated.map((memory) => sameText(memory.content)));
  const memories = answeringMemories(memoryLinesOf(system), userMessage).filter(
    (memory) => !said.has(sameText(memory.content)),
  );
  const known = joinPhrases(memories.map((memory) => phrase(memory.content)));
  if (stated.length > 0) {
    const thanks = `Thanks for telling me: ${joinPhrases(stated.map((memory) => phrase(memory.content)))}.`;
    return memories.length > 0 ? `${thanks} ${sentence(`I also remember that ${known}`)}` : `${thanks}${notice}`;
  }
  if (memories.length > 0) return sentence(`From what you've told me, ${known}`);
  return `Nothing you've told me helps with that.${notice}`;
}

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

export function decideMemoryToolCall(userMessage: string, toolNames: readonly string[]): MemoryToolCall | null {
  if (!toolNames.includes(LIST_MEMORIES)) return null;
  const typed = TYPED_OVERVIEW.find((entry) => entry.pattern.test(userMessage));
  if (typed) return { toolName: LIST_MEMORIES, input: { type: typed.type } };
  return WHOLE_OVERVIEW.test(userMessage) ? { toolName: LIST_MEMORIES, input: {} } : null;
}

export interface ToolResultInput {
  toolName: string;
  input: { type?: string } | undefined;
  output: MemoryToolOutput | null;
  error?: string;
}

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
