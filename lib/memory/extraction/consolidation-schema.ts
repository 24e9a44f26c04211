/**
 * The structured output of the consolidation decision: what to do with one new memory candidate
 * given the user's stored memories that are near it (mem0-style ADD / UPDATE / SUPERSEDE / SKIP).
 * The same schema drives a real model's structured output and validates the offline model's.
 */
import { z } from "zod";

/** `responseFormat.name` of the consolidation call (the offline model dispatches on it). */
export const CONSOLIDATION_OUTPUT_NAME = "memory_consolidation";

export const CONSOLIDATION_ACTIONS = ["ADD", "UPDATE", "SUPERSEDE", "SKIP"] as const;
export type ConsolidationAction = (typeof CONSOLIDATION_ACTIONS)[number];

export const consolidationOutputSchema = z.object({
  /**
   * ADD: a new fact, store it. UPDATE: the same fact with more or corrected detail — merge into
   * `targetId`. SUPERSEDE: the same subject with a different, contradicting value — the new memory
   * replaces `targetId`. SKIP: already known as `targetId`.
   */
  action: z.enum(CONSOLIDATION_ACTIONS),
  /** The id of the existing memory the action applies to; null for ADD. */
  targetId: z.string().nullable(),
  /** UPDATE only: the merged memory (one third-person sentence); null to keep the new candidate's text. */
  content: z.string().min(1).max(2000).nullable(),
  /** UPDATE only: the merged title; null to keep the new candidate's title. */
  title: z.string().min(1).max(120).nullable(),
  /** One short sentence: why. */
  reason: z.string().min(1).max(500),
});

export type ConsolidationOutput = z.infer<typeof consolidationOutputSchema>;
