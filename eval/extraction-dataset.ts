/** A match needs every keyword group at a word start and agreeing type and deadline; optional ones count for neither recall nor precision. */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { MEMORY_TYPES, type MemoryType } from "@/db/schema";
import { DatasetError, describeIssues } from "./dataset";

export const NEGATIVE_CATEGORIES = ["question", "hypothetical", "assistant_only", "smalltalk"] as const;
export const CONTRADICTION_CATEGORIES = ["negation", "move", "change"] as const;

export const EXTRACTION_CATEGORIES = [
  "fact",
  "preference",
  "goal",
  "deadline",
  "question",
  "hypothetical",
  "assistant_only",
  "negation",
  "move",
  "change",
  "third_party",
  "update",
  "duplicate",
  "smalltalk",
  "compound",
] as const;
export type ExtractionCategory = (typeof EXTRACTION_CATEGORIES)[number];

/** supersede / update / skip: what consolidation must do to `target`; keep: `target` must stay active and unchanged. */
export const EXPECTED_ACTIONS = ["supersede", "update", "skip", "keep"] as const;
export type ExpectedAction = (typeof EXPECTED_ACTIONS)[number];

const typeList = z.union([z.enum(MEMORY_TYPES), z.array(z.enum(MEMORY_TYPES)).min(1)]);

const expectedMemorySchema = z.strictObject({
  keywords: z.array(z.string().trim().min(1)).min(1),
  type: typeList.optional(),
  deadline: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  /** Acceptable but not required (e.g. a sister's name next to where she lives). */
  optional: z.boolean().optional(),
});

const priorMemorySchema = z.strictObject({
  id: z.string().min(1),
  content: z.string().trim().min(1),
  title: z.string().trim().min(1).nullish(),
  type: z.enum(MEMORY_TYPES).optional(),
});

const caseSchema = z.strictObject({
  id: z.string().min(1),
  category: z.enum(EXTRACTION_CATEGORIES),
  /** "holdout": not looked at while the offline rules were changed (docs/evaluation.md § Extraction). */
  split: z.enum(["dev", "holdout"]).optional(),
  /** "holdout": a dev case that was held out in an earlier round, reported apart as "(formerly holdout)". */
  formerly: z.enum(["holdout"]).optional(),
  prior: z.array(priorMemorySchema).optional(),
  user: z.string().trim().min(1),
  assistant: z.string().trim().min(1),
  expected: z.array(expectedMemorySchema),
  decision: z.strictObject({ action: z.enum(EXPECTED_ACTIONS), target: z.string().min(1) }).optional(),
});

export const extractionDatasetSchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    current_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    cases: z.array(caseSchema).min(1),
  })
  .superRefine((file, ctx) => {
    const ids = new Set<string>();
    file.cases.forEach((c, i) => {
      if (ids.has(c.id))
        ctx.addIssue({ code: "custom", path: ["cases", i, "id"], message: `duplicate case id "${c.id}"` });
      ids.add(c.id);
      const priorIds = new Set((c.prior ?? []).map((p) => p.id));
      if (priorIds.size !== (c.prior ?? []).length)
        ctx.addIssue({ code: "custom", path: ["cases", i, "prior"], message: "duplicate prior memory id" });
      if (c.decision && !priorIds.has(c.decision.target))
        ctx.addIssue({
          code: "custom",
          path: ["cases", i, "decision", "target"],
          message: `unknown prior memory id "${c.decision.target}"`,
        });
      const contradiction = (CONTRADICTION_CATEGORIES as readonly string[]).includes(c.category);
      if (contradiction && c.decision?.action !== "supersede")
        ctx.addIssue({
          code: "custom",
          path: ["cases", i, "decision"],
          message: `a ${c.category} case needs a supersede decision`,
        });
      const negative = (NEGATIVE_CATEGORIES as readonly string[]).includes(c.category);
      if (negative && c.expected.some((e) => !e.optional))
        ctx.addIssue({
          code: "custom",
          path: ["cases", i, "expected"],
          message: `a ${c.category} case expects no required memory`,
        });
    });
  });

export type ExtractionDatasetFile = z.infer<typeof extractionDatasetSchema>;
export type ExtractionCase = ExtractionDatasetFile["cases"][number];
export type ExpectedMemory = z.infer<typeof expectedMemorySchema>;

export interface ExtractionDataset {
  name: string;
  source: string;
  currentDate: string;
  cases: ExtractionCase[];
}

export function extractionDatasetFromJson(json: unknown, source: string): ExtractionDataset {
  const parsed = extractionDatasetSchema.safeParse(json);
  if (!parsed.success)
    throw new DatasetError(`${source} is not a valid extraction dataset:\n${describeIssues(parsed.error)}`);
  return { name: parsed.data.name, source, currentDate: parsed.data.current_date, cases: parsed.data.cases };
}

export async function loadExtractionDataset(filePath: string): Promise<ExtractionDataset> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(filePath, "utf8"));
  } catch (error) {
    throw new DatasetError(`cannot read extraction dataset ${filePath}: ${(error as Error).message}`);
  }
  return extractionDatasetFromJson(json, filePath);
}

export function normaliseForMatch(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/favourite/g, "favorite")
    .replace(/colour/g, "color")
    .replace(/\s+/g, " ")
    .trim();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function hasKeyword(content: string, keyword: string): boolean {
  return normaliseForMatch(keyword)
    .split("|")
    .some((alternative) => new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(alternative.trim())}`, "u").test(content));
}

export function matchesExpected(
  memory: { content: string; type: MemoryType; deadline: string | null },
  expected: ExpectedMemory,
): boolean {
  const content = normaliseForMatch(memory.content);
  if (!expected.keywords.every((keyword) => hasKeyword(content, keyword))) return false;
  if (expected.type !== undefined) {
    const types: readonly string[] = Array.isArray(expected.type) ? expected.type : [expected.type];
    if (!types.includes(memory.type)) return false;
  }
  return expected.deadline === undefined || expected.deadline === memory.deadline;
}
