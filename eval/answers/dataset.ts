/**
 * What the answer evaluation reads from LoCoMo (snap-research, ACL 2024) and the LoCoMo audit
 * (dial481/locomo-audit), both CC BY-NC 4.0: read from outside the repository, never copied in.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { DatasetError, describeIssues } from "../dataset";
import { LOCOMO_CATEGORIES, parseSessionDate } from "../locomo";

export const ANSWER_CATEGORIES = [1, 2, 3, 4] as const;

const turnSchema = z.object({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string(),
  blip_caption: z.string().optional(),
});

const sampleSchema = z.object({
  sample_id: z.string(),
  conversation: z.record(z.string(), z.unknown()),
  qa: z.array(
    z.object({
      question: z.string(),
      // A handful of gold answers are numbers (a year); LoCoMo's scorer reads them as str(answer).
      answer: z.union([z.string(), z.number()]).optional(),
      category: z.number().int(),
    }),
  ),
});

export interface Turn {
  speaker: string;
  text: string;
  caption: string | null;
}

export interface Session {
  index: number;
  /** As LoCoMo writes it: "1:56 pm on 8 May, 2023". */
  dateText: string;
  at: Date;
  turns: Turn[];
}

export interface Question {
  id: string;
  sampleId: string;
  question: string;
  gold: string;
  category: number;
  categoryName: string;
}

export interface AnswerSample {
  index: number;
  sampleId: string;
  speakers: [string, string];
  sessions: Session[];
  questions: Question[];
}

export async function loadAnswerSamples(filePath: string, wanted?: readonly string[]): Promise<AnswerSample[]> {
  const json = await readJson(filePath, "LoCoMo", "set LOCOMO_PATH or pass --locomo PATH");
  const parsed = z.array(sampleSchema).safeParse(json);
  if (!parsed.success) throw new DatasetError(`${filePath} is not LoCoMo data:\n${describeIssues(parsed.error)}`);
  const all = parsed.data.map((sample, index) => toSample(sample, index));
  if (!wanted?.length) return all;
  return wanted.map((id) => {
    const sample = all.find((s) => s.sampleId === id || String(s.index) === id);
    if (!sample) {
      throw new DatasetError(
        `no LoCoMo sample "${id}" (have ${all.map((s) => s.sampleId).join(", ")}, or 0–${all.length - 1})`,
      );
    }
    return sample;
  });
}

function toSample(sample: z.infer<typeof sampleSchema>, index: number): AnswerSample {
  const conversation = sample.conversation;
  const speakers = [conversation.speaker_a, conversation.speaker_b];
  if (typeof speakers[0] !== "string" || typeof speakers[1] !== "string") {
    throw new DatasetError(`LoCoMo ${sample.sample_id}: no speaker_a / speaker_b`);
  }
  const sessions: Session[] = [];
  for (const [key, value] of Object.entries(conversation)) {
    const number = /^session_(\d+)$/.exec(key)?.[1];
    if (number === undefined) continue;
    const dateText = conversation[`session_${number}_date_time`];
    const turns = z.array(turnSchema).safeParse(value);
    if (typeof dateText !== "string" || !turns.success) {
      throw new DatasetError(`LoCoMo ${sample.sample_id}: session ${number} has no date or malformed turns`);
    }
    sessions.push({
      index: Number(number),
      dateText,
      at: parseSessionDate(dateText),
      turns: turns.data.map((turn) => ({ speaker: turn.speaker, text: turn.text, caption: turn.blip_caption ?? null })),
    });
  }
  sessions.sort((a, b) => a.index - b.index);
  const questions = sample.qa.flatMap((qa, i): Question[] => {
    const categoryName = LOCOMO_CATEGORIES[qa.category];
    if (categoryName === undefined) return [];
    if (qa.answer === undefined) throw new DatasetError(`LoCoMo ${sample.sample_id} qa ${i}: no answer`);
    return [
      {
        id: `locomo_${index}_qa${i}`,
        sampleId: sample.sample_id,
        question: qa.question,
        gold: String(qa.answer),
        category: qa.category,
        categoryName,
      },
    ];
  });
  return { index, sampleId: sample.sample_id, speakers: [speakers[0], speakers[1]], sessions, questions };
}

const errorsSchema = z.array(
  z.object({
    question_id: z.string(),
    error_type: z.string(),
    golden_answer: z.string(),
    correct_answer: z.string(),
  }),
);

const vagueSchema = z.object({
  detailed_results: z.record(
    z.string(),
    z.array(z.object({ question_id: z.string(), generated_answer: z.string(), golden_answer: z.string() })),
  ),
});

export interface Audit {
  source: string;
  corrected: ReadonlyMap<string, { answer: string; errorType: string }>;
  vague: ReadonlyMap<string, string>;
}

export const CITATION_ONLY = "WRONG_CITATION";

export async function loadAudit(dir: string): Promise<Audit> {
  const hint = "pass --audit DIR (default ../shared/eval/locomo/audit)";
  const errorsFile = path.join(dir, "errors.json");
  const vagueFile = path.join(dir, "vague-wrong-answers.json");
  const errors = errorsSchema.safeParse(await readJson(errorsFile, "the LoCoMo audit", hint));
  if (!errors.success)
    throw new DatasetError(`${errorsFile} is not the audit's errors:\n${describeIssues(errors.error)}`);
  const vague = vagueSchema.safeParse(await readJson(vagueFile, "the LoCoMo audit", hint));
  if (!vague.success) {
    throw new DatasetError(`${vagueFile} is not the audit's vague answers:\n${describeIssues(vague.error)}`);
  }
  return {
    source: dir,
    corrected: new Map(
      errors.data
        .filter((finding) => finding.error_type !== CITATION_ONLY && finding.correct_answer !== finding.golden_answer)
        .map((finding) => [finding.question_id, { answer: finding.correct_answer, errorType: finding.error_type }]),
    ),
    vague: new Map(
      Object.values(vague.data.detailed_results)
        .flat()
        .map((entry) => [entry.question_id, entry.generated_answer]),
    ),
  };
}

async function readJson(filePath: string, what: string, hint: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(filePath, "utf8"));
  } catch (error) {
    throw new DatasetError(`cannot read ${what} from ${filePath} (${(error as Error).message}); ${hint}`);
  }
}

/** In the form LoCoMo's own evaluation gives a model the conversation (task_eval/gpt_utils.py). */
export function sessionText(session: Session): string {
  const lines = session.turns.map(
    (turn) => `${turn.speaker}: ${turn.text}${turn.caption ? ` [shares a photo: ${turn.caption}]` : ""}`,
  );
  return [`Session ${session.index}, ${session.dateText}:`, ...lines].join("\n");
}
