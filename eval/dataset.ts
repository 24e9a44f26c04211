import { readFile } from "node:fs/promises";
import { z } from "zod";
import { MEMORY_TYPES, type MemoryType } from "@/db/schema";

const DAY_MS = 86_400_000;

export interface EvalMemory {
  key: string;
  content: string;
  title: string | null;
  type: MemoryType;
  importance: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface EvalQuery {
  key: string;
  text: string;
  relevant: string[];
  category: string;
  /**
   * true: the query has an answer, so it counts in hit/recall/MRR/nDCG even when `relevant` is
   * empty (LoCoMo evidence that no observation cites: a guaranteed miss). false: nothing should
   * be retrieved; it counts only in the "no-answer" share.
   */
  answerable: boolean;
}

export interface EvalCorpus {
  name: string;
  now: Date;
  memories: EvalMemory[];
  queries: EvalQuery[];
}

export interface EvalDataset {
  name: string;
  source: string;
  notes: string[];
  corpora: EvalCorpus[];
}

const memorySchema = z.strictObject({
  id: z.string().min(1),
  content: z.string().trim().min(1),
  title: z.string().nullish(),
  type: z.enum(MEMORY_TYPES).optional(),
  importance: z.number().min(0).max(1).optional(),
  /** Days before `now` the memory was created and last updated (fractions allowed). */
  age_days: z.number().min(0).optional(),
  /**
   * When the memory was created and last updated, as an ISO date ("2025-09-21", midnight UTC) or
   * date-time: for questions that name a date. Not with `age_days`.
   */
  created_at: z.union([z.iso.date(), z.iso.datetime({ offset: true })]).optional(),
});

const querySchema = z.strictObject({
  id: z.string().min(1),
  text: z.string().trim().min(1),
  relevant: z.array(z.string().min(1)),
  category: z.string().min(1).optional(),
});

export const datasetFileSchema = z
  .strictObject({
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    memories: z.array(memorySchema).min(1),
    queries: z.array(querySchema).min(1),
  })
  .superRefine((file, ctx) => {
    const ids = new Set<string>();
    file.memories.forEach((memory, i) => {
      if (memory.age_days !== undefined && memory.created_at !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["memories", i, "created_at"],
          message: "give age_days or created_at, not both",
        });
      if (ids.has(memory.id))
        ctx.addIssue({ code: "custom", path: ["memories", i, "id"], message: `duplicate memory id "${memory.id}"` });
      ids.add(memory.id);
    });
    const queryIds = new Set<string>();
    file.queries.forEach((query, i) => {
      if (queryIds.has(query.id))
        ctx.addIssue({ code: "custom", path: ["queries", i, "id"], message: `duplicate query id "${query.id}"` });
      queryIds.add(query.id);
      query.relevant.forEach((id, j) => {
        if (!ids.has(id))
          ctx.addIssue({ code: "custom", path: ["queries", i, "relevant", j], message: `unknown memory id "${id}"` });
      });
    });
  });

export type DatasetFile = z.infer<typeof datasetFileSchema>;

export class DatasetError extends Error {
  override readonly name = "DatasetError";
}

export function describeIssues(error: z.ZodError, limit = 20): string {
  const lines = error.issues.slice(0, limit).map((issue) => {
    const at = issue.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("");
    return `  ${at.replace(/^\./, "") || "(root)"}: ${issue.message}`;
  });
  const more = error.issues.length > limit ? [`  … and ${error.issues.length - limit} more`] : [];
  return [...lines, ...more].join("\n");
}

/** Validates parsed JSON as a dataset file; `now` is the instant `age_days` count back from (`created_at` is absolute). */
export function datasetFromJson(json: unknown, source: string, now: Date): EvalDataset {
  const parsed = datasetFileSchema.safeParse(json);
  if (!parsed.success) throw new DatasetError(`${source} is not a valid dataset:\n${describeIssues(parsed.error)}`);
  const file = parsed.data;
  const name = file.name ?? source;
  const memories = file.memories.map((memory): EvalMemory => {
    const at =
      memory.created_at === undefined
        ? new Date(now.getTime() - (memory.age_days ?? 0) * DAY_MS)
        : new Date(memory.created_at.length === 10 ? `${memory.created_at}T00:00:00Z` : memory.created_at);
    return {
      key: memory.id,
      content: memory.content,
      title: memory.title?.trim() ? memory.title.trim() : null,
      type: memory.type ?? "personal",
      importance: memory.importance ?? 0.5,
      createdAt: at,
      updatedAt: at,
    };
  });
  const queries = file.queries.map(
    (query): EvalQuery => ({
      key: query.id,
      text: query.text,
      relevant: query.relevant,
      category: query.category ?? (query.relevant.length === 0 ? "no-answer" : "all"),
      answerable: query.relevant.length > 0,
    }),
  );
  return {
    name,
    source,
    notes: file.description ? [file.description] : [],
    corpora: [{ name, now, memories, queries }],
  };
}

export async function loadDatasetFile(filePath: string, now: Date): Promise<EvalDataset> {
  let text: string;
  try {
    text = await readFile(filePath, "utf8");
  } catch (error) {
    throw new DatasetError(`cannot read dataset ${filePath}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DatasetError(`${filePath} is not JSON: ${(error as Error).message}`);
  }
  return datasetFromJson(json, filePath, now);
}
