/**
 * How the offline model reads the prompts Lifeline writes — the only place it knows their shape.
 * prompt-readers.test.ts builds each prompt with the product's own builders (lib/memory's, and
 * lib/chat's title prompt) and reads it back here, so the two cannot drift apart unseen.
 */
import { MEMORY_TYPES, type MemoryType } from "@/db/schema";
import type {
  ConsolidationCandidate,
  NearMemoryForPrompt,
  ParsedConsolidationPrompt,
} from "@/lib/memory/extraction/consolidation-prompt";
import type {
  ConversationMessage,
  ConversationRole,
  MemoryTitleInput,
  ParsedExtractionPrompt,
} from "@/lib/memory/extraction/prompt";
import { TASK_HANDOFF_NAMESPACE, type TaskHandoff } from "@/lib/memory/extraction/schema";

/**
 * The conversation title's output name (lib/chat/title-prompt.ts): lib/chat sits above this wing
 * (it reaches it through lib/ai), so the name is spelled here and pinned by prompt-readers.test.ts.
 */
export const TITLE_OUTPUT_NAME = "conversation_title";

export const MEMORY_OFF_NOTE = "Memory is off for this conversation";

/** The line above the memories only at hand (pinned, or from this conversation), not matched to the message. */
export const UNMATCHED_MEMORIES_HEADING =
  "Also at hand, not matched to this message (pinned, or from this conversation):";

/** The structured input the prompt was built from, read instead of the prompt's text. */
export function readHandoff(providerOptions: Record<string, unknown> | undefined, task: string): unknown {
  const handoff = providerOptions?.[TASK_HANDOFF_NAMESPACE] as Partial<TaskHandoff> | undefined;
  return handoff?.task === task ? handoff.input : undefined;
}

function readBlock(prompt: string, tag: string): string | undefined {
  return new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(prompt)?.[1];
}

function readJsonBlock(prompt: string, tag: string): unknown {
  const body = readBlock(prompt, tag);
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

export function parseExtractionPrompt(prompt: string): ParsedExtractionPrompt | undefined {
  const currentDate = /^Current date: (\d{4}-\d{2}-\d{2})(?: \(\w+\))?$/m.exec(prompt)?.[1];
  const userMessage = readBlock(prompt, "user_message");
  const assistantMessage = readBlock(prompt, "assistant_message");
  if (currentDate === undefined || userMessage === undefined || assistantMessage === undefined) return undefined;
  return { currentDate, userMessage, assistantMessage };
}

export function parseTitlePrompt(prompt: string): ConversationMessage[] | undefined {
  const body = readBlock(prompt, "conversation");
  if (body === undefined) return undefined;
  return body
    .split(/\n\n(?=(?:user|assistant): )/)
    .map((entry) => /^(user|assistant): ([\s\S]*)$/.exec(entry))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ role: match[1] as ConversationRole, content: match[2] ?? "" }));
}

export function parseMemoryTitlePrompt(prompt: string): MemoryTitleInput | undefined {
  const type = /^Write a title for this memory \(type: (\w+)\)\.$/m.exec(prompt)?.[1];
  const content = readBlock(prompt, "memory");
  if (content === undefined || !(MEMORY_TYPES as readonly string[]).includes(type ?? "")) return undefined;
  return { content, type: type as MemoryType };
}

function isCandidate(value: unknown): value is ConsolidationCandidate {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.title === "string" && typeof v.content === "string" && typeof v.type === "string";
}

function isNearMemory(value: unknown): value is NearMemoryForPrompt {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === "string" &&
    (typeof v.title === "string" || v.title === null) &&
    typeof v.content === "string" &&
    typeof v.type === "string" &&
    typeof v.similarity === "number"
  );
}

export function parseConsolidationPrompt(prompt: string): ParsedConsolidationPrompt | undefined {
  const candidate = readJsonBlock(prompt, "new_memory");
  const existing = readJsonBlock(prompt, "existing_memories");
  if (!isCandidate(candidate) || !Array.isArray(existing) || !existing.every(isNearMemory)) return undefined;
  return { candidate, existing };
}
