/**
 * LoCoMo (snap-research, ACL 2024; CC BY-NC 4.0) as a judged retrieval dataset, read from outside
 * the repository and never copied. Evidence no observation cites still counts, as a miss, so the
 * denominator is every question with evidence.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { MONTHS } from "@/core/calendar";
import { DatasetError, describeIssues, type EvalCorpus, type EvalDataset, type EvalMemory } from "./dataset";

const DAY_MS = 86_400_000;

export const LOCOMO_CATEGORIES: Readonly<Record<number, string>> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
};

const locomoSchema = z.array(
  z.object({
    sample_id: z.string(),
    conversation: z.record(z.string(), z.unknown()),
    observation: z.record(
      z.string(),
      z.record(z.string(), z.array(z.tuple([z.string(), z.union([z.string(), z.array(z.string())])]))),
    ),
    qa: z.array(
      z.object({
        question: z.string(),
        evidence: z.array(z.string()).optional(),
        category: z.number().int(),
      }),
    ),
  }),
);

type LocomoSample = z.infer<typeof locomoSchema>[number];

export function parseSessionDate(text: string): Date {
  const match = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})$/i.exec(text.trim());
  const month = match ? (MONTHS as readonly string[]).indexOf((match[5] ?? "").toLowerCase()) : -1;
  if (!match || month < 0) throw new DatasetError(`unrecognised LoCoMo session date "${text}"`);
  const hour12 = Number(match[1]) % 12;
  const hour = (match[3] ?? "").toLowerCase() === "pm" ? hour12 + 12 : hour12;
  return new Date(Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2])));
}

/** The data's irregular references ("D8:6; D9:17", "D:11:26") read as the ids they plainly mean. */
export function diaIds(reference: string | readonly string[]): string[] {
  const text = typeof reference === "string" ? reference : reference.join(" ");
  return [...text.matchAll(/D:?(\d+):(\d+)/g)].map((m) => `D${m[1]}:${m[2]}`);
}

function sampleCorpus(sample: LocomoSample): EvalCorpus {
  const memories: EvalMemory[] = [];
  const citing = new Map<string, string[]>(); // dia_id → memory keys
  let last = 0;
  for (const [key, bySpeaker] of Object.entries(sample.observation)) {
    const session = /^session_(\d+)_observation$/.exec(key)?.[1];
    const date = sample.conversation[`session_${session}_date_time`];
    if (session === undefined || typeof date !== "string") {
      throw new DatasetError(`LoCoMo ${sample.sample_id}: no date for observation block "${key}"`);
    }
    const at = parseSessionDate(date);
    last = Math.max(last, at.getTime());
    for (const facts of Object.values(bySpeaker)) {
      for (const [content, reference] of facts) {
        const memoryKey = `${sample.sample_id}:s${session}:${memories.length}`;
        memories.push({
          key: memoryKey,
          content,
          title: null,
          type: "personal",
          importance: 0.5,
          createdAt: at,
          updatedAt: at,
        });
        for (const id of diaIds(reference)) citing.set(id, [...(citing.get(id) ?? []), memoryKey]);
      }
    }
  }
  const queries = sample.qa
    .filter((qa) => LOCOMO_CATEGORIES[qa.category] !== undefined && (qa.evidence?.length ?? 0) > 0)
    .map((qa, i) => ({
      key: `${sample.sample_id}:q${i}`,
      text: qa.question,
      relevant: [...new Set(diaIds(qa.evidence ?? []).flatMap((id) => citing.get(id) ?? []))],
      category: LOCOMO_CATEGORIES[qa.category] ?? String(qa.category),
      answerable: true,
    }));
  const dayAfter = Math.floor(last / DAY_MS) * DAY_MS + DAY_MS;
  return { name: sample.sample_id, now: new Date(dayAfter), memories, queries };
}

export async function loadLocomo(filePath: string, samples?: readonly string[]): Promise<EvalDataset> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(filePath, "utf8"));
  } catch (error) {
    throw new DatasetError(
      `cannot read LoCoMo from ${filePath} (${(error as Error).message}); set LOCOMO_PATH or pass --locomo PATH`,
    );
  }
  const parsed = locomoSchema.safeParse(json);
  if (!parsed.success) throw new DatasetError(`${filePath} is not LoCoMo data:\n${describeIssues(parsed.error)}`);
  const all = parsed.data;
  const chosen = samples?.length
    ? samples.map((wanted) => {
        const sample = all.find((s, i) => s.sample_id === wanted || String(i) === wanted);
        if (!sample) {
          throw new DatasetError(
            `no LoCoMo sample "${wanted}" (have ${all.map((s) => s.sample_id).join(", ")}, or 0–${all.length - 1})`,
          );
        }
        return sample;
      })
    : all;
  const corpora = chosen.map(sampleCorpus);
  const queries = corpora.flatMap((corpus) => corpus.queries);
  const unreachable = queries.filter((query) => query.relevant.length === 0).length;
  return {
    name: "locomo",
    source: filePath,
    notes: [
      "LoCoMo (Maharana et al., ACL 2024), CC BY-NC 4.0; observations as memories, categories 1–4.",
      `${queries.length} questions with evidence; ${unreachable} cite only turns no observation cites (counted as misses).`,
      "now = the day after each sample's last session; importance 0.5 for every memory.",
    ],
    corpora,
  };
}
