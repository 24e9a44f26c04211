/** Each sample's user is kept afterwards, so every answer can be opened in the app. Category 5 (adversarial) is skipped. */
import { randomBytes } from "node:crypto";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import { and, count, eq } from "drizzle-orm";
import type { Logger } from "@/core/logger";
import type { Db } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { memories } from "@/db/schema";
import type { AiRegistry } from "@/lib/ai/registry";
import { hashPassword } from "@/lib/auth/password";
import type { AssemblyConfig } from "@/lib/memory/retrieval/assembly-config";
import type { Embedder } from "../load";
import type { RunProgress } from "../run";
import {
  estimateExtraction,
  estimateJudge,
  estimateTurn,
  FULL_CONTEXT_HISTORY_BUDGET,
  type TokenBudget,
} from "./budget";
import { type AskedTurn, askThroughChatTurn } from "./chat-turn";
import { type AnswerSample, type Audit, type Question, sessionText } from "./dataset";
import { locomoF1 } from "./f1";
import { judge, type Verdict } from "./judge";
import { type MemoryMode, storeExtracted, storeObservations } from "./memories";

export const CONTENDERS = ["lifeline", "full-context", "no-memory"] as const;
export type Contender = (typeof CONTENDERS)[number];

/** Apart from the retrieval evaluation's domain, which deletes its own users. */
export const ANSWERS_EMAIL_DOMAIN = "answers.eval.lifeline.invalid";

export interface AnswerRunOptions {
  samples: AnswerSample[];
  audit: Audit;
  locomoPath: string;
  perSample?: number;
  contenders: readonly Contender[];
  memories: MemoryMode;
  assembly: AssemblyConfig;
  judgeModel: LanguageModelV4 | null;
  /** How many of the audit's vague wrong answers the judge is asked about (the first of the run's questions). */
  vagueSample: number;
  concurrency: number;
  budget: TokenBudget;
  runId: string;
  appUrl: string;
  progress: RunProgress;
  log: Logger;
}

export interface Scored {
  answer: string;
  status: string;
  f1: number;
  f1Corrected: number;
  judge: boolean | null;
  judgeCorrected: boolean | null;
  judgeError: string | null;
  promptTokens: number;
  inputTokens: number | null;
  outputTokens: number | null;
  memoryLines: number;
  turnMs: number;
  conversationId: string;
  messageId: string;
  debugUrl: string;
}

export interface QuestionResult {
  id: string;
  sample: string;
  category: number;
  categoryName: string;
  question: string;
  gold: string;
  corrected: string | null;
  answers: Partial<Record<Contender, Scored>>;
}

export interface SampleUser {
  sample: string;
  email: string;
  userId: string;
  memories: number;
  extraction?: { exchanges: number; failed: number };
}

export interface AnswerRun {
  users: SampleUser[];
  password: string;
  questions: QuestionResult[];
  vague: { judged: number; accepted: number; errors: number } | null;
  stoppedByBudget: boolean;
}

function countedModel(model: LanguageModelV4, count: (tokens: number) => void): LanguageModelV4 {
  const spent = (usage: { inputTokens?: { total?: number }; outputTokens?: { total?: number } } | undefined) =>
    (usage?.inputTokens?.total ?? 0) + (usage?.outputTokens?.total ?? 0);
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v4",
      wrapGenerate: async ({ doGenerate }) => {
        const result = await doGenerate();
        count(spent(result.usage as Parameters<typeof spent>[0]));
        return result;
      },
    },
  });
}

/** A refused task (false) stops new ones from starting. */
async function pool<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<boolean>): Promise<void> {
  let next = 0;
  let stop = false;
  const worker = async () => {
    while (!stop && next < items.length) {
      const item = items[next++] as T;
      if (!(await task(item))) stop = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
}

export async function runAnswers(
  db: Db,
  ai: AiRegistry,
  embedder: Embedder,
  options: AnswerRunOptions,
): Promise<AnswerRun> {
  const { budget, audit } = options;
  const password = randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(password);
  const users: SampleUser[] = [];
  const questions: QuestionResult[] = [];
  const total = options.samples.reduce(
    (sum, sample) => sum + questionsOf(sample, options.perSample).length * options.contenders.length,
    0,
  );
  options.progress.start(total, "answers");

  for (const sample of options.samples) {
    if (budget.stopped) break;
    const email = `${options.runId}-${sample.sampleId}@${ANSWERS_EMAIL_DOMAIN}`.toLowerCase();
    const user = await createUser(db, {
      email,
      // The extracted memories are the first speaker's, as Lifeline's user; observations name everyone.
      name: options.memories === "extracted" ? sample.speakers[0] : null,
      passwordHash,
    });
    const entry: SampleUser = { sample: sample.sampleId, email, userId: user.id, memories: 0 };
    users.push(entry);
    if (options.contenders.includes("lifeline")) {
      if (options.memories === "observations") {
        entry.memories = await storeObservations(db, {
          userId: user.id,
          locomoPath: options.locomoPath,
          sample,
          embedder,
          runId: options.runId,
        });
      } else {
        const model = countedModel(ai.getExtractionModel(), (tokens) => budget.settle(0, tokens));
        const extracted = await storeExtracted(db, {
          userId: user.id,
          sample,
          run: {
            model,
            embed: (texts) => embedder.embed(texts),
            embeddingModel: embedder.id,
            // The reservation is released at once: the wrapped model counts what each call spends.
            mayRun: (exchange) => {
              const estimate = estimateExtraction(exchange);
              if (!budget.reserve(estimate)) return false;
              budget.settle(estimate, 0);
              return true;
            },
          },
        });
        entry.extraction = { exchanges: extracted.exchanges, failed: extracted.failed };
        entry.memories = await countActiveMemories(db, user.id);
        if (extracted.stopped) break;
      }
    }

    const history = sample.sessions.map(sessionText);
    const tasks = questionsOf(sample, options.perSample).flatMap((question) => {
      const result: QuestionResult = {
        id: question.id,
        sample: sample.sampleId,
        category: question.category,
        categoryName: question.categoryName,
        question: question.question,
        gold: question.gold,
        corrected: audit.corrected.get(question.id)?.answer ?? null,
        answers: {},
      };
      questions.push(result);
      return options.contenders.map((contender) => ({ question, result, contender }));
    });
    await pool(tasks, options.concurrency, async ({ question, result, contender }) => {
      const ask = {
        userId: user.id,
        title: `${contender} · ${question.id} · ${question.question}`.slice(0, 100),
        message: question.question,
        memoryEnabled: contender === "lifeline",
        ...(contender === "full-context"
          ? {
              history,
              assembly: { ...options.assembly, prompt: { historyTokenBudget: FULL_CONTEXT_HISTORY_BUDGET } },
            }
          : { assembly: options.assembly }),
      };
      const estimate = estimateTurn(ask);
      if (!budget.reserve(estimate)) return false;
      let turn: AskedTurn;
      try {
        turn = await askThroughChatTurn(db, ai, ask, options.log);
      } finally {
        budget.settle(estimate, 0);
      }
      budget.settle(0, (turn.inputTokens ?? 0) + (turn.outputTokens ?? 0));
      const scored = await score(question, result.corrected, turn, options);
      result.answers[contender] = scored;
      options.progress.tick(1);
      return true;
    });
  }

  const vague = options.judgeModel ? await judgeVague(questions, options) : null;
  return { users, password, questions, vague, stoppedByBudget: budget.stopped };
}

function questionsOf(sample: AnswerSample, perSample: number | undefined): Question[] {
  return perSample === undefined ? sample.questions : sample.questions.slice(0, perSample);
}

async function countActiveMemories(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(memories)
    .where(and(eq(memories.userId, userId), eq(memories.status, "active")));
  return row?.count ?? 0;
}

async function score(
  question: Question,
  corrected: string | null,
  turn: AskedTurn,
  options: AnswerRunOptions,
): Promise<Scored> {
  const f1 = locomoF1(question.category, turn.answer, question.gold);
  const verdicts = options.judgeModel
    ? await judged(options.judgeModel, options.budget, question, corrected, turn.answer)
    : null;
  return {
    answer: turn.answer,
    status: turn.status,
    f1,
    f1Corrected: corrected === null ? f1 : locomoF1(question.category, turn.answer, corrected),
    judge: verdicts?.original.correct ?? null,
    judgeCorrected: verdicts?.corrected.correct ?? null,
    judgeError: verdicts?.original.error ?? verdicts?.corrected.error ?? null,
    promptTokens: turn.promptTokens,
    inputTokens: turn.inputTokens,
    outputTokens: turn.outputTokens,
    memoryLines: turn.memoryLines,
    turnMs: Math.round(turn.turnMs),
    conversationId: turn.conversationId,
    messageId: turn.assistantMessageId,
    debugUrl: `${options.appUrl.replace(/\/$/, "")}/messages/${turn.assistantMessageId}/debug`,
  };
}

const NOT_JUDGED: Verdict = {
  correct: null,
  error: "not judged: the token budget ran out",
  inputTokens: 0,
  outputTokens: 0,
};

async function judgeWithin(
  model: LanguageModelV4,
  budget: TokenBudget,
  input: { question: string; gold: string; answer: string },
): Promise<Verdict> {
  const estimate = estimateJudge(input);
  if (!budget.reserve(estimate)) return NOT_JUDGED;
  let verdict: Verdict | undefined;
  try {
    verdict = await judge(model, input);
    return verdict;
  } finally {
    budget.settle(estimate, (verdict?.inputTokens ?? 0) + (verdict?.outputTokens ?? 0));
  }
}

/** One judge call per gold answer: the corrected gold is judged only where the audit changed it. */
async function judged(
  model: LanguageModelV4,
  budget: TokenBudget,
  question: Question,
  corrected: string | null,
  answer: string,
): Promise<{ original: Verdict; corrected: Verdict }> {
  const original = await judgeWithin(model, budget, { question: question.question, gold: question.gold, answer });
  if (corrected === null) return { original, corrected: original };
  return {
    original,
    corrected: await judgeWithin(model, budget, { question: question.question, gold: corrected, answer }),
  };
}

async function judgeVague(
  questions: readonly QuestionResult[],
  options: AnswerRunOptions,
): Promise<{ judged: number; accepted: number; errors: number }> {
  const model = options.judgeModel;
  const out = { judged: 0, accepted: 0, errors: 0 };
  if (!model) return out;
  for (const question of questions.slice(0, options.vagueSample)) {
    const vague = options.audit.vague.get(question.id);
    if (vague === undefined) continue;
    const verdict = await judgeWithin(model, options.budget, {
      question: question.question,
      gold: question.gold,
      answer: vague,
    });
    if (verdict === NOT_JUDGED) break;
    if (verdict.correct === null) out.errors++;
    else {
      out.judged++;
      if (verdict.correct) out.accepted++;
    }
  }
  return out;
}
