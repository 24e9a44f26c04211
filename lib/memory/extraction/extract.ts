/**
 * Provenance is decided here, not by the model: `user_stated` only when a user quote really occurs in
 * the user's message; anything else waits as pending_confirmation until the user confirms it.
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
  status: Extract<MemoryStatus, "active" | "pending_confirmation">;
};

export interface ExtractionInput {
  /** YYYY-MM-DD: relative dates ("Friday") are resolved against it. */
  currentDate: string;
  userName?: string | null;
  /** Context only. */
  previousMessages: ConversationMessage[];
  userMessage: string;
  assistantMessage: string;
}

/** "by tomorrow" said at 23:30 in Auckland is the day after Auckland's today. */
export function currentDateOf(now: Date, timeZone?: string | null): string {
  return calendarDateIn(now, timeZone);
}

function comparable(text: string): string {
  return text.toLowerCase().replace(/[’‘`]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, " ").trim();
}

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
