/**
 * Memory extraction from one exchange: the prompt (buildExtractionPrompt, with the current date),
 * one structured-output call, and the provenance of each candidate.
 *
 * Provenance is decided here, not by the model: a candidate is `user_stated` only when one of its
 * user quotes really occurs in the user's message (compared case-, space- and quote-insensitively).
 * Anything else — evidence only from the assistant, or "user" quotes the user never wrote — is an
 * `assistant_suggested` memory, stored as `pending_confirmation` and never retrieved until the user
 * confirms it.
 */

import type { LanguageModelV4 } from "@ai-sdk/provider";
import { calendarDateIn } from "@/core/time-zone";
import type { MemoryProvenance, MemoryStatus } from "@/db/schema";
import { generateStructured } from "./call";
import { buildExtractionPrompt, type ConversationMessage, type ParsedExtractionPrompt } from "./prompt";
import { EXTRACTION_OUTPUT_NAME, type ExtractionCandidate, extractionResultSchema } from "./schema";

export type ExtractedProvenance = Extract<MemoryProvenance, "user_stated" | "assistant_suggested">;

export type ExtractedMemory = ExtractionCandidate & {
  provenance: ExtractedProvenance;
  /** active for user_stated, pending_confirmation for assistant_suggested. */
  status: Extract<MemoryStatus, "active" | "pending_confirmation">;
};

export interface ExtractionInput {
  /** YYYY-MM-DD: relative dates ("Friday") are resolved against it. */
  currentDate: string;
  userName?: string | null;
  /** Earlier messages, oldest first: context only. */
  previousMessages: ConversationMessage[];
  userMessage: string;
  assistantMessage: string;
}

/**
 * The calendar date of `now` in the user's time zone (UTC when they have none), as the extraction
 * prompt wants it: "by tomorrow" said at 23:30 in Auckland is the day after Auckland's today.
 */
export function currentDateOf(now: Date, timeZone?: string | null): string {
  return calendarDateIn(now, timeZone);
}

function comparable(text: string): string {
  return text.toLowerCase().replace(/[’‘`]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, " ").trim();
}

/** Where the candidate's content comes from: a user quote found in the user's message, or not. */
export function provenanceOf(
  candidate: Pick<ExtractionCandidate, "evidence">,
  userMessage: string,
): ExtractedProvenance {
  const said = comparable(userMessage);
  const quoted = candidate.evidence.some((e) => {
    const quote = comparable(e.quote);
    return e.role === "user" && quote.length > 0 && said.includes(quote);
  });
  return quoted ? "user_stated" : "assistant_suggested";
}

/**
 * The memories worth keeping from the exchange (possibly none). Throws MalformedOutputError when
 * the model's output is not valid JSON of the schema; model and network errors propagate.
 */
export async function extractMemories(model: LanguageModelV4, input: ExtractionInput): Promise<ExtractedMemory[]> {
  const { system, prompt } = buildExtractionPrompt({
    currentDate: input.currentDate,
    userName: input.userName ?? undefined,
    previousMessages: input.previousMessages,
    userMessage: input.userMessage,
    assistantMessage: input.assistantMessage,
  });
  const handoff: ParsedExtractionPrompt = {
    currentDate: input.currentDate,
    userMessage: input.userMessage,
    assistantMessage: input.assistantMessage,
  };
  const result = await generateStructured(model, {
    schema: extractionResultSchema,
    name: EXTRACTION_OUTPUT_NAME,
    system,
    prompt,
    input: handoff,
  });
  return result.memories.map((candidate) => {
    const provenance = provenanceOf(candidate, input.userMessage);
    return { ...candidate, provenance, status: provenance === "user_stated" ? "active" : "pending_confirmation" };
  });
}
