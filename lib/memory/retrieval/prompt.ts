import type { ModelMessage } from "ai";
import { promptConfig } from "@/core/config";
import type { ChatMode } from "@/db/schema";
import { countTokens, detokenize, tokenize } from "@/lib/memory/tokens";
import { MODE_INSTRUCTIONS } from "./modes";

export type MemorySection =
  | {
      status: "ok";
      lines: readonly string[];
      /** Set apart so a model can tell what matched the message from what is merely at hand. */
      unmatchedLines?: readonly string[];
      /** Lets the section say memory is being re-indexed rather than that nothing relates. */
      waitingForReembedding?: number;
    }
  | { status: "disabled" }
  /** The section is left empty: it must not claim what did or did not match. */
  | { status: "failed" };

export interface HistoryMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  /** messages.content_tokens; counted here when absent. */
  tokens?: number | null;
}

export interface HistoryEntry {
  id: string;
  role: "user" | "assistant";
  /** null for messages older than the first one that did not fit (never counted). */
  tokens: number | null;
  included: boolean;
  /** Absent when sent whole or not at all. */
  cut?: { sentTokens: number; omittedTokens: number };
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
  /** Oldest first, without the new message. */
  history: readonly HistoryMessage[];
  message: string;
  historyTokenBudget: number;
}

export interface BuiltPrompt {
  messages: ModelMessage[];
  tokens: PromptTokens;
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

const UNMATCHED_MEMORIES_HEADING = "Also at hand, not matched to this message (pinned, or from this conversation):";

export function renderMemorySection(memory: MemorySection, name: string): string {
  switch (memory.status) {
    case "failed":
      return "";
    case "disabled":
      return `${MEMORY_OFF_NOTE}: you cannot see anything from ${name}'s other conversations, and nothing said here will be remembered.`;
    case "ok": {
      const waiting = memory.waitingForReembedding ?? 0;
      const reindexing = `${name}'s memories are being re-indexed: ${waiting} of them cannot be searched yet`;
      if (memory.lines.length === 0) {
        return waiting > 0
          ? `${reindexing}, so you cannot tell whether any relate to this message. Say so if ${name} asks what you remember.`
          : `You have no saved memories about ${name} that relate to this message.`;
      }
      return [
        `## What you remember about ${name}`,
        ...memoryLines(memory.lines, memory.unmatchedLines ?? []),
        "",
        `These notes come from earlier conversations and may be outdated or incomplete. Use one only when it helps with the current message, go by what ${name} says now when it conflicts with a note, and don't recite them or keep pointing out that you remember.`,
        ...(waiting > 0 ? [`${reindexing}, so these notes may be incomplete.`] : []),
      ].join("\n");
    }
  }
}

function memoryLines(lines: readonly string[], unmatchedLines: readonly string[]): string[] {
  const unmatched = new Set(unmatchedLines);
  const matched = lines.filter((line) => !unmatched.has(line));
  const rest = lines.filter((line) => unmatched.has(line));
  return rest.length === 0 ? [...matched] : [...matched, UNMATCHED_MEMORIES_HEADING, ...rest];
}

/** The debug view counts on its wording. */
export function historyCutMarker(omittedTokens: number): string {
  return `[… ${omittedTokens.toLocaleString("en-US")} tokens of this message left out …]`;
}

/**
 * The newest exchange is always sent; older messages follow newest first while they fit, and from the
 * first that does not, every older one is left out — never a gap in the conversation. A long message
 * is cut in its middle. `tokens` never exceeds `budget`.
 */
export function selectHistory(
  history: readonly HistoryMessage[],
  budget: number,
): { included: HistoryMessage[]; entries: HistoryEntry[]; tokens: number } {
  const entries: HistoryEntry[] = history.map(({ id, role }) => ({ id, role, tokens: null, included: false }));
  const sent = new Map<number, HistoryMessage>();
  let spent = 0;
  const send = (i: number, allowance: number): boolean => {
    const message = history[i];
    const entry = entries[i];
    if (!message || !entry) return false;
    entry.tokens ??= tokensOf(message);
    if (entry.tokens <= allowance) {
      sent.set(i, message);
      spent += entry.tokens;
      entry.included = true;
      return true;
    }
    const cut = cutToTokens(message.content, entry.tokens, allowance);
    if (!cut) return false;
    sent.set(i, { ...message, content: cut.content });
    spent += cut.sentTokens;
    entry.included = true;
    entry.cut = { sentTokens: cut.sentTokens, omittedTokens: cut.omittedTokens };
    return true;
  };

  const lastQuestion = history.findLastIndex((message) => message.role === "user");
  const exchangeStart = lastQuestion === -1 ? Math.max(0, history.length - 1) : lastQuestion;
  // The newest exchange, shortest first: each message gets an equal share of what is left, and
  // what a short one does not use goes to the longer ones.
  const exchange = history.slice(exchangeStart).map((m, k) => ({ i: exchangeStart + k, tokens: tokensOf(m) }));
  for (const [i, { i: index, tokens }] of exchange.toSorted((a, b) => a.tokens - b.tokens).entries()) {
    const entry = entries[index];
    if (entry) entry.tokens = tokens;
    send(index, Math.floor((budget - spent) / (exchange.length - i)));
  }

  const maxMessageTokens = Math.floor(budget * promptConfig.maxMessageShare);
  for (let i = exchangeStart - 1; i >= 0; i--) {
    const message = history[i];
    const entry = entries[i];
    if (!message || !entry) break;
    entry.tokens = tokensOf(message);
    const needed = Math.min(entry.tokens, maxMessageTokens);
    if (needed > budget - spent || !send(i, needed)) break;
  }
  const included = [...sent.entries()].toSorted(([a], [b]) => a - b).map(([, message]) => message);
  return { included, entries, tokens: spent };
}

const tokensOf = (message: HistoryMessage): number => message.tokens ?? countTokens(message.content);

/** A cut keeps at least this many tokens of the message's start and of its end, or sends nothing. */
const MIN_CUT_SIDE_TOKENS = 8;

function cutToTokens(
  text: string,
  total: number,
  maxTokens: number,
): { content: string; sentTokens: number; omittedTokens: number } | null {
  // Joining can merge tokens at the seams, so the count is taken of the joined text and the kept
  // part shrinks until it fits (once, nearly always).
  let kept = maxTokens - countTokens(`\n\n${historyCutMarker(total)}\n\n`);
  while (kept >= 2 * MIN_CUT_SIDE_TOKENS) {
    const headTokens = Math.ceil(kept / 2);
    const head = detokenize(firstTokens(text, headTokens));
    const tail = detokenize(lastTokens(text, kept - headTokens));
    const omittedTokens = total - kept;
    const content = `${head}\n\n${historyCutMarker(omittedTokens)}\n\n${tail}`;
    const sentTokens = countTokens(content);
    if (sentTokens <= maxTokens) return { content, sentTokens, omittedTokens };
    kept -= sentTokens - maxTokens;
  }
  return null;
}

/** An ordinary token is 3–5 characters, so a cut tokenises about what it keeps; denser text is tokenised whole. */
const CHARS_PER_TOKEN_READ = 8;

function firstTokens(text: string, count: number): number[] {
  const window = count * CHARS_PER_TOKEN_READ;
  // One token more than wanted: the window's last pre-token may be cut, and with it its last token.
  const tokens = text.length > window ? tokenize(text.slice(0, window)) : [];
  return (tokens.length > count ? tokens : tokenize(text)).slice(0, count);
}

function lastTokens(text: string, count: number): number[] {
  if (count === 0) return [];
  const window = count * CHARS_PER_TOKEN_READ;
  const tokens = text.length > window ? tokenize(text.slice(text.length - window)) : [];
  return (tokens.length > count ? tokens : tokenize(text)).slice(-count);
}

function displayName(userName: string | null | undefined): string | null {
  const name = userName?.replace(/\s+/g, " ").trim();
  return name ? name : null;
}
