/** The same schemas drive a real model's structured output and validate the offline model's. */
import { z } from "zod";
import { MEMORY_TYPES } from "@/db/schema";

/** The offline model dispatches on it. */
export const EXTRACTION_OUTPUT_NAME = "memory_extraction";
export const MEMORY_TITLE_OUTPUT_NAME = "memory_title";

export const evidenceSchema = z.object({
  /** Which message the quote comes from: only `user` quotes make a fact about the user. */
  role: z.enum(["user", "assistant"]),
  quote: z.string().min(1).max(500),
});

export const extractionCandidateSchema = z.object({
  title: z.string().min(1).max(120),
  content: z.string().min(1).max(2000),
  type: z.enum(MEMORY_TYPES),
  importance: z.number().min(0).max(1),
  tags: z.array(z.string().min(1).max(40)).max(10),
  confidence: z.number().min(0).max(1),
  isActionable: z.boolean(),
  /** YYYY-MM-DD, already resolved against the current date; null when there is none. */
  deadline: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable(),
  evidence: z.array(evidenceSchema).min(1),
});

export const extractionResultSchema = z.object({
  memories: z.array(extractionCandidateSchema).max(10),
});

export const memoryTitleSchema = z.object({
  title: extractionCandidateSchema.shape.title,
});

export type Evidence = z.infer<typeof evidenceSchema>;
export type ExtractionCandidate = z.infer<typeof extractionCandidateSchema>;
export type ExtractionResult = z.infer<typeof extractionResultSchema>;
export type MemoryTitleResult = z.infer<typeof memoryTitleSchema>;

/** Provider options are namespaced, so OpenAI ignores it; the offline model reads it instead of parsing the prompt back. */
export const TASK_HANDOFF_NAMESPACE = "lifeline";

export interface TaskHandoff {
  task: string;
  input: unknown;
}

export function handoffOptions(handoff: TaskHandoff) {
  return { [TASK_HANDOFF_NAMESPACE]: JSON.parse(JSON.stringify(handoff)) as Record<string, never> };
}
