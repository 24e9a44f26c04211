/**
 * The one shape every conversation export is read into (lib/import/*), in the browser and on the
 * server: what a batch carries (lib/validation/imports.ts) and what the import job stores.
 */
export const IMPORT_SOURCES = ["chatgpt", "claude"] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export const IMPORT_SOURCE_LABELS: Record<ImportSource, string> = { chatgpt: "ChatGPT", claude: "Claude" };

export interface ImportedMessage {
  /** The export's own id of the message: re-importing it adds nothing. */
  sourceId: string;
  role: "user" | "assistant";
  text: string;
  /** ISO 8601; the conversation's date when the export gives the message none. */
  createdAt: string;
}

export interface ImportedConversation {
  sourceId: string;
  title: string;
  createdAt: string;
  messages: ImportedMessage[];
}

/** Why something in the export is not imported, and how often. */
export interface SkipCount {
  reason: string;
  count: number;
}

export interface ParsedExport {
  source: ImportSource;
  conversations: ImportedConversation[];
  /** Messages (and conversations) left out, by reason. */
  skipped: SkipCount[];
}

/** The export cannot be read: `message` says what is wrong with it, for the person who chose it. */
export class ImportFormatError extends Error {
  override readonly name = "ImportFormatError";
}

export class SkipTally {
  private readonly counts = new Map<string, number>();
  add(reason: string, count = 1): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + count);
  }
  list(): SkipCount[] {
    return [...this.counts].map(([reason, count]) => ({ reason, count }));
  }
}

const CONTROL = /(?![\t\n\r])\p{Cc}/gu;
const LONE_SURROGATE = /\p{Surrogate}/gu;

/** Text as the server accepts it: no control characters (tab and line breaks kept), no unpaired surrogates. */
export function cleanText(text: string): string {
  return text.replace(CONTROL, "").replace(LONE_SURROGATE, "\uFFFD").replace(/\r\n?/g, "\n").trim();
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A Unix time in seconds (ChatGPT) or an ISO string (Claude) as ISO 8601; null when it is neither. */
export function isoDate(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    const date = new Date(value * 1000);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  if (typeof value === "string" && value.length > 0) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  return null;
}

/** Drops messages longer than the limit, counting them, and returns the rest. */
export function withinLimits(
  messages: ImportedMessage[],
  { maxMessageChars }: { maxMessageChars: number },
  skipped: SkipTally,
): ImportedMessage[] {
  return messages.filter((message) => {
    if (message.text.length <= maxMessageChars) return true;
    skipped.add(`message longer than ${maxMessageChars.toLocaleString("en")} characters`);
    return false;
  });
}
