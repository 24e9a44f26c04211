import { z } from "zod";

/** The offline model dispatches on it. */
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
  targetId: z.string().nullable(),
  /** UPDATE only: the merged memory (one third-person sentence); null to keep the new candidate's text. */
  content: z.string().min(1).max(2000).nullable(),
  title: z.string().min(1).max(120).nullable(),
  reason: z.string().min(1).max(500),
});

export type ConsolidationOutput = z.infer<typeof consolidationOutputSchema>;
