import type { RetrievedMemory } from "./memory-row";

export interface FormatterSettings {
  readonly maxMemories: number;
  readonly maxLineChars: number;
  readonly maxTitleChars: number;
  readonly bullet: string;
}

export type FormattableMemory = Pick<RetrievedMemory, "id" | "title" | "content" | "importance" | "createdAt"> & {
  /** Pinned memories go first, so the cap never drops one for a merely retrieved memory. */
  pinned?: boolean;
};

export interface FormattedMemory {
  id: string;
  included: boolean;
  truncated: boolean;
  line: string | null;
}

export interface FormattedContext {
  lines: string[];
  memories: FormattedMemory[];
}

/** A memory is always one line, and lengths count code points so a cut never splits a character. */
export function formatMemories(memories: readonly FormattableMemory[], config: FormatterSettings): FormattedContext {
  const ordered = [...memories].sort(
    (a, b) =>
      Number(b.pinned === true) - Number(a.pinned === true) ||
      b.importance - a.importance ||
      b.createdAt.getTime() - a.createdAt.getTime() ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const formatted = ordered.map((memory, index): FormattedMemory => {
    if (index >= config.maxMemories) return { id: memory.id, included: false, truncated: false, line: null };
    const { text, truncated } = cut(memoryText(memory, config), config.maxLineChars);
    return { id: memory.id, included: true, truncated, line: `${config.bullet}${text}` };
  });
  return {
    lines: formatted.flatMap((memory) => (memory.line === null ? [] : [memory.line])),
    memories: formatted,
  };
}

function memoryText(memory: FormattableMemory, config: FormatterSettings): string {
  const content = oneLine(memory.content);
  const title = oneLine(memory.title ?? "");
  return title !== "" && [...title].length < config.maxTitleChars && !titleRepeats(title, content)
    ? `${title}: ${content}`
    : content;
}

const ELLIPSIS = /(?:\.\.\.|…)$/;

/**
 * Whether a title says nothing its content does not say first: the content's words, or their
 * start — to a word's end, or anywhere for a title cut with an ellipsis (a title made from the
 * content) — ignoring case, spacing and end punctuation. "Allergy" repeats "Allergy to
 * penicillin"; "Tea" does not repeat "Teaches on Mondays".
 */
export function titleRepeats(title: string, content: string): boolean {
  const cut = ELLIPSIS.test(title.trim());
  const normal = (text: string) =>
    oneLine(text)
      .toLowerCase()
      .replace(ELLIPSIS, "")
      .replace(/[\s.,;:!?]+$/u, "");
  const start = normal(title);
  const text = normal(content);
  if (start === "" || !text.startsWith(start)) return false;
  return cut || text.length === start.length || !/[\p{L}\p{N}]/u.test(text.charAt(start.length));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function cut(text: string, maxChars: number): { text: string; truncated: boolean } {
  const chars = [...text];
  if (chars.length <= maxChars) return { text, truncated: false };
  return { text: `${chars.slice(0, maxChars - 3).join("")}...`, truncated: true };
}
