/**
 * The consolidation prompt. The new candidate and the near memories travel as JSON inside
 * delimiter tags (core/json-block.ts), so a model reads them as data.
 */
import { CONSOLIDATION_BLOCKS, jsonBlock } from "@/core/json-block";
import type { BuiltPrompt } from "./prompt";

export interface ConsolidationCandidate {
  title: string;
  content: string;
  type: string;
}

export interface NearMemoryForPrompt {
  id: string;
  title: string | null;
  content: string;
  type: string;
  /** Cosine similarity to the candidate, 0–1. */
  similarity: number;
}

export interface ParsedConsolidationPrompt {
  candidate: ConsolidationCandidate;
  existing: NearMemoryForPrompt[];
}

export const CONSOLIDATION_SYSTEM_PROMPT = `You keep the long-term memory of Lifeline, a personal assistant, free of duplicates and contradictions. You are given ONE new memory about the user and the stored memories most similar to it. Decide what to do with the new memory:

- ADD: it states something the stored memories do not (a different fact, even about a related topic). targetId null.
- UPDATE: it is the same fact as one stored memory but adds or corrects detail ("Likes pizza" → "Likes pizza with extra cheese"). Give that memory's id as targetId and the merged memory as content (one third-person sentence, no "I"/"my") and title (or null to keep the new ones).
- SUPERSEDE: it gives a different value for the same single-valued subject as a stored memory, so the stored one is no longer true ("Sister's name is Maya" → "Sister's name is Mia", "Prefers green tea" → "Prefers black tea", "Lives in Berlin" → "Lives in Paris"). Give that memory's id as targetId.
- SKIP: a stored memory already says the same thing. Give its id as targetId.

Rules:
- Similar wording is not sameness: "Is allergic to peanuts" and "Is allergic to shellfish" are two facts (ADD). Liking two things is not a contradiction.
- Only use ids from <existing_memories>. When unsure between ADD and anything else, choose ADD.
- content and title are null unless the action is UPDATE.
- reason: one short sentence.`;

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Exactly what the consolidation prompt shows of `input`: the prompt's fields, similarities rounded. */
export function shownConsolidationInput(input: ParsedConsolidationPrompt): ParsedConsolidationPrompt {
  return {
    candidate: { title: input.candidate.title, content: input.candidate.content, type: input.candidate.type },
    existing: input.existing.map((memory) => ({
      id: memory.id,
      title: memory.title,
      content: memory.content,
      type: memory.type,
      similarity: round(memory.similarity),
    })),
  };
}

/** The prompt for deciding what to do with `candidate` given its near memories (most similar first). */
export function buildConsolidationPrompt(input: ParsedConsolidationPrompt): BuiltPrompt {
  const { candidate, existing } = shownConsolidationInput(input);
  const prompt = [
    "Decide what to do with the new memory, following the rules.",
    jsonBlock(CONSOLIDATION_BLOCKS.candidate, candidate),
    jsonBlock(CONSOLIDATION_BLOCKS.near, existing),
  ].join("\n\n");
  return { system: CONSOLIDATION_SYSTEM_PROMPT, prompt };
}

/** Lower-cased, straight apostrophes, no trailing punctuation, single spaces. */
export function normaliseMemoryText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[\s.!?;:,]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
}
