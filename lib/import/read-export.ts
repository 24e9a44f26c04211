/**
 * Reads a chosen file — a ChatGPT or Claude export zip, or its `conversations.json`, or a Lifeline
 * memory export (lib/import/lifeline.ts) — into the
 * normalised shape, in the browser (Settings → Import) or a script. A zip is read with fflate:
 * its entry count and each entry's declared size and compression ratio are checked before
 * anything is inflated, and only the conversations file is inflated, into a buffer of its
 * declared size (so a lying header cannot grow memory past the limit).
 */
import { strFromU8, unzipSync } from "fflate";
import { importConfig } from "@/core/config";
import { isChatGptExport, parseChatGptConversations } from "./chatgpt";
import { isClaudeExport, parseClaudeConversations } from "./claude";
import { isLifelineExport, type ParsedLifelineExport, parseLifelineExport } from "./lifeline";
import { ImportFormatError, type ParsedExport } from "./types";

export interface ReadLimits {
  maxZipEntries: number;
  maxUncompressedBytes: number;
  maxCompressionRatio: number;
  maxMessageChars: number;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function isZip(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((byte, i) => bytes[i] === byte);
}

function isConversationsFile(name: string): boolean {
  return name === "conversations.json" || name.endsWith("/conversations.json");
}

function unzipConversations(bytes: Uint8Array, limits: ReadLimits): Uint8Array {
  let entries = 0;
  let chosen: string | null = null;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        entries += 1;
        if (entries > limits.maxZipEntries) {
          throw new ImportFormatError(`The zip has more than ${limits.maxZipEntries.toLocaleString("en")} files.`);
        }
        if (chosen !== null || !isConversationsFile(file.name)) return false;
        if (file.originalSize > limits.maxUncompressedBytes) {
          throw new ImportFormatError(
            `${file.name} is larger than ${Math.round(limits.maxUncompressedBytes / 1024 / 1024)} MB uncompressed.`,
          );
        }
        if (file.originalSize > Math.max(file.size, 1) * limits.maxCompressionRatio) {
          throw new ImportFormatError(
            `${file.name} expands more than ${limits.maxCompressionRatio} times: refused as a zip bomb.`,
          );
        }
        chosen = file.name;
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ImportFormatError) throw error;
    throw new ImportFormatError(`The zip is damaged or truncated (${error instanceof Error ? error.message : error}).`);
  }
  const found = chosen === null ? undefined : files[chosen];
  if (!found) throw new ImportFormatError("The zip has no conversations.json: it is not a ChatGPT or Claude export.");
  return found;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ImportFormatError(`The file is not valid JSON (${error instanceof Error ? error.message : error}).`);
  }
}

/** Parses the JSON text of a conversations file, naming what is wrong when it is not one. */
export function parseConversationsJson(text: string, limits: Pick<ReadLimits, "maxMessageChars">): ParsedExport {
  return parseConversationsValue(parseJson(text), limits);
}

function parseConversationsValue(value: unknown, limits: Pick<ReadLimits, "maxMessageChars">): ParsedExport {
  if (Array.isArray(value) && value.length === 0) throw new ImportFormatError("The export has no conversations.");
  if (isChatGptExport(value)) return parseChatGptConversations(value, limits);
  if (isClaudeExport(value)) return parseClaudeConversations(value, limits);
  throw new ImportFormatError(
    "The file is not a ChatGPT, Claude or Lifeline export: expected a list of conversations with a `mapping` (ChatGPT) or `chat_messages` (Claude), or a Lifeline memory export.",
  );
}

export type ReadFile =
  | { kind: "conversations"; parsed: ParsedExport }
  | { kind: "lifeline"; parsed: ParsedLifelineExport };

/** Reads a zip or a conversations.json given as bytes. */
export function readExport(bytes: Uint8Array, limits: ReadLimits = importConfig): ParsedExport {
  const read = readImportFile(bytes, limits);
  if (read.kind === "lifeline") {
    throw new ImportFormatError("The file is a Lifeline memory export, not a ChatGPT or Claude export.");
  }
  return read.parsed;
}

/** Reads whichever file Settings → Import was given: a ChatGPT or Claude export, or a Lifeline export (by its shape). */
export function readImportFile(bytes: Uint8Array, limits: ReadLimits = importConfig): ReadFile {
  if (bytes.length === 0) throw new ImportFormatError("The file is empty.");
  const json = isZip(bytes) ? unzipConversations(bytes, limits) : bytes;
  if (!isZip(bytes) && json.length > limits.maxUncompressedBytes) {
    throw new ImportFormatError(`The file is larger than ${Math.round(limits.maxUncompressedBytes / 1024 / 1024)} MB.`);
  }
  const value = parseJson(strFromU8(json));
  if (!isZip(bytes) && isLifelineExport(value)) return { kind: "lifeline", parsed: parseLifelineExport(value) };
  const parsed = parseConversationsValue(value, limits);
  if (parsed.conversations.length === 0) {
    throw new ImportFormatError("The export has no conversation with a message of yours to import.");
  }
  return { kind: "conversations", parsed };
}
