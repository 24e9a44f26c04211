/**
 * What the answer evaluation reads from LoCoMo (snap-research, ACL 2024) and from the LoCoMo audit
 * (dial481/locomo-audit), both CC BY-NC 4.0: read from outside the repository, never copied in.
 *
 * - Questions: categories 1–4 of each chosen sample (1,540 in all: the answerable ones, the audit's
 *   count; category 5, adversarial, is skipped as the systems we compare with skip it), each with
 *   the audit's id `locomo_<sample index>_qa<index in the sample's qa list>`.
 * - Sessions: each session's date and turns, for the full-context baseline and extracted memories.
 * - The audit: `errors.json` (corrected answers; WRONG_CITATION findings keep the answer, the 99
 *   others change it) and `vague-wrong-answers.json` (a vague, topical, wrong answer per question).
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
  /** The caption LoCoMo gives a photo shared with the turn. */
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
  /** The audit's id: `locomo_<sample index>_qa<qa index>`. */
  id: string;
  sampleId: string;
  question: string;
  gold: string;
  category: number;
  categoryName: string;
}

export interface AnswerSample {
  /** 0-based position in the file (the audit's sample number). */
  index: number;
  sampleId: string;
  speakers: [string, string];
  sessions: Session[];
  questions: Question[];
}

/** LoCoMo's samples (all, or those named by sample_id or 0-based index), with their answerable questions. */
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
  /** Question id → the corrected gold answer, for the findings that change the score. */
  corrected: ReadonlyMap<string, { answer: string; errorType: string }>;
  /** Question id → the audit's vague but topical wrong answer. */
  vague: ReadonlyMap<string, string>;
}

/** The citation-only findings: the evidence ids are wrong, the answer stands. */
export const CITATION_ONLY = "WRONG_CITATION";

/** The audit's two files from `dir` (errors.json, vague-wrong-answers.json). */
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

/**
 * A session as one message of the full-context baseline's history, in the form LoCoMo's own
 * evaluation gives a model the conversation (task_eval/gpt_utils.py: the session's date, then each
 * turn with the caption of a photo it shared).
 */
export function sessionText(session: Session): string {
  const lines = session.turns.map(
    (turn) => `${turn.speaker}: ${turn.text}${turn.caption ? ` [shares a photo: ${turn.caption}]` : ""}`,
  );
  return [`Session ${session.index}, ${session.dateText}:`, ...lines].join("\n");
}
