/**
 * Prompt builder: one system message (mode instructions, the user's name, the memory section),
 * then recent history as real chat messages within a token budget, then the new user message.
 */
import type { ModelMessage } from "ai";
import type { ChatMode } from "@/db/schema";
import { countTokens } from "@/lib/memory/tokens";
import { MODE_INSTRUCTIONS } from "./modes";

export type MemorySection =
  | {
      status: "ok";
      /** Every line, in the formatter's order. */
      lines: readonly string[];
      /**
       * The lines no retrieval of this message selected (pinned, or from this conversation only):
       * the prompt puts them after the others, under UNMATCHED_MEMORIES_HEADING, so a model can
       * tell what matched the message from what is merely at hand. None when omitted.
       */
      unmatchedLines?: readonly string[];
    }
  /** Memory is off for this conversation (temporary chat). */
  | { status: "disabled" }
  /** Retrieval failed: the section is left empty, and says nothing about what (not) matched. */
  | { status: "failed" };

export interface HistoryMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
}

export interface HistoryEntry {
  id: string;
  role: "user" | "assistant";
  /** Content tokens; null for messages older than the first one that did not fit (never counted). */
  tokens: number | null;
  included: boolean;
}

/** Content tokens per section. `memory` is part of `system`; total = system + history + userMessage. */
export interface PromptTokens {
  system: number;
  memory: number;
  history: number;
  userMessage: number;
  total: number;
}

export interface PromptInput {
  mode: ChatMode;
  userName?: string | null;
  memory: MemorySection;
  /** Earlier messages of the conversation, oldest first, without the new message. */
  history: readonly HistoryMessage[];
  message: string;
  historyTokenBudget: number;
}

export interface BuiltPrompt {
  messages: ModelMessage[];
  tokens: PromptTokens;
  /** Every history message, oldest first, with whether it was sent. */
  history: HistoryEntry[];
}

export function buildPrompt(input: PromptInput): BuiltPrompt {
  const name = displayName(input.userName);
  const memorySection = renderMemorySection(input.memory, name ?? "the user");
  const system = [MODE_INSTRUCTIONS[input.mode], name ? `You are talking with ${name}.` : "", memorySection]
    .filter((part) => part !== "")
    .join("\n\n");
  const history = selectHistory(input.history, input.historyTokenBudget);

  const tokens = {
    system: countTokens(system),
    memory: countTokens(memorySection),
    history: history.tokens,
    userMessage: countTokens(input.message),
  };
  return {
    messages: [
      { role: "system", content: system },
      ...history.included.map(({ role, content }): ModelMessage => ({ role, content })),
      { role: "user", content: input.message },
    ],
    tokens: { ...tokens, total: tokens.system + tokens.history + tokens.userMessage },
    history: history.entries,
  };
}

const MEMORY_OFF_NOTE = "Memory is off for this conversation";

/** Heads the memory lines not selected for the current message; the lines above it matched it. */
const UNMATCHED_MEMORIES_HEADING = "Also at hand, not matched to this message (pinned, or from this conversation):";

/**
 * The memory part of the system message: a header and the bullet lines (those that matched the
 * message first, then the others under UNMATCHED_MEMORIES_HEADING) with a short note on how to use
 * them; one line when nothing was retrieved or memory is off; empty on failure.
 */
export function renderMemorySection(memory: MemorySection, name: string): string {
  switch (memory.status) {
    case "failed":
      return "";
    case "disabled":
      return `${MEMORY_OFF_NOTE}: you cannot see anything from ${name}'s other conversations, and nothing said here will be remembered.`;
    case "ok":
      if (memory.lines.length === 0) {
        return `You have no saved memories about ${name} that relate to this message.`;
      }
      return [
        `## What you remember about ${name}`,
        ...memoryLines(memory.lines, memory.unmatchedLines ?? []),
        "",
        `These notes come from earlier conversations and may be outdated or incomplete. Use one only when it helps with the current message, go by what ${name} says now when it conflicts with a note, and don't recite them or keep pointing out that you remember.`,
      ].join("\n");
  }
}

function memoryLines(lines: readonly string[], unmatchedLines: readonly string[]): string[] {
  const unmatched = new Set(unmatchedLines);
  const matched = lines.filter((line) => !unmatched.has(line));
  const rest = lines.filter((line) => unmatched.has(line));
  return rest.length === 0 ? [...matched] : [...matched, UNMATCHED_MEMORIES_HEADING, ...rest];
}

/**
 * Walks the history newest first, taking whole messages while their tokens fit in `budget`;
 * the first message that does not fit ends the walk (no partial message, no skipping ahead to
 * a smaller older one). The taken messages are returned in chronological order.
 */
export function selectHistory(
  history: readonly HistoryMessage[],
  budget: number,
): { included: HistoryMessage[]; entries: HistoryEntry[]; tokens: number } {
  const entries: HistoryEntry[] = history.map(({ id, role }) => ({ id, role, tokens: null, included: false }));
  let spent = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    const entry = entries[i];
    if (!message || !entry) break;
    entry.tokens = countTokens(message.content);
    if (spent + entry.tokens > budget) break;
    spent += entry.tokens;
    entry.included = true;
  }
  return { included: history.filter((_, i) => entries[i]?.included), entries, tokens: spent };
}

function displayName(userName: string | null | undefined): string | null {
  const name = userName?.replace(/\s+/g, " ").trim();
  return name ? name : null;
}
