import { percentile } from "../metrics";
import type { AnswerRun, Contender, QuestionResult, Scored } from "./run";

export interface Scores {
  questions: number;
  /** Mean LoCoMo F1 against the original gold answers, and against the audit's corrections. */
  f1: number | null;
  f1Corrected: number | null;
  /** Judge accuracy (CORRECT / judged), original and corrected gold; null without a judge. */
  judge: number | null;
  judgeCorrected: number | null;
  judged: number;
  /** Answers the judge gave no verdict on (an unreadable answer, or the budget ran out first). */
  unjudged: number;
}

export interface ContenderSummary {
  name: Contender;
  overall: Scores;
  byCategory: Record<string, Scores>;
  tokens: {
    /** Mean prompt tokens per question by Lifeline's tokenizer (system with memories, history, question). */
    promptMean: number | null;
    /** Mean input and output tokens per question as the model reported them (null when it reported none). */
    inputMean: number | null;
    outputMean: number | null;
  };
  latencyMs: { p50: number | null; p95: number | null };
  /** Mean words per answer (longer answers score lower F1 and are judged more leniently). */
  answerWords: number | null;
  incomplete: number;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;

function scores(answers: readonly Scored[]): Scores {
  const judged = answers.filter((a) => a.judge !== null);
  const judgedCorrected = answers.filter((a) => a.judgeCorrected !== null);
  return {
    questions: answers.length,
    f1: mean(answers.map((a) => a.f1)),
    f1Corrected: mean(answers.map((a) => a.f1Corrected)),
    judge: judged.length === 0 ? null : judged.filter((a) => a.judge).length / judged.length,
    judgeCorrected:
      judgedCorrected.length === 0
        ? null
        : judgedCorrected.filter((a) => a.judgeCorrected).length / judgedCorrected.length,
    judged: judged.length,
    unjudged: answers.filter((a) => a.judgeError !== null).length,
  };
}

export function summarise(questions: readonly QuestionResult[], contenders: readonly Contender[]): ContenderSummary[] {
  const categories = [...new Set(questions.map((q) => q.categoryName))].sort();
  return contenders.map((name) => {
    const answered = questions.flatMap((q) => (q.answers[name] ? [{ q, a: q.answers[name] as Scored }] : []));
    const all = answered.map(({ a }) => a);
    const reported = (pick: (a: Scored) => number | null) =>
      all.some((a) => pick(a) !== null) ? mean(all.map((a) => pick(a) ?? 0)) : null;
    const latencies = all.map((a) => a.turnMs);
    return {
      name,
      overall: scores(all),
      byCategory: Object.fromEntries(
        categories.map((c) => [c, scores(answered.filter(({ q }) => q.categoryName === c).map(({ a }) => a))]),
      ),
      tokens: {
        promptMean: mean(all.map((a) => a.promptTokens)),
        inputMean: reported((a) => a.inputTokens),
        outputMean: reported((a) => a.outputTokens),
      },
      latencyMs: {
        p50: latencies.length ? percentile(latencies, 50) : null,
        p95: latencies.length ? percentile(latencies, 95) : null,
      },
      answerWords: mean(all.map((a) => a.answer.split(/\s+/).filter(Boolean).length)),
      incomplete: all.filter((a) => a.status !== "complete").length,
    };
  });
}

export interface AnswersReport {
  generatedAt: string;
  model: string;
  judge: { model: string; prompt: string; temperature: 0 } | null;
  embedder: string;
  strategy: string;
  memories: string;
  database: { kind: string; location: string };
  dataset: {
    locomo: string;
    audit: string;
    samples: string[];
    questions: number;
    corrected: number;
    category5: "skipped";
  };
  budget: { limit: number | null; spent: number; stoppedByBudget: boolean };
  /** Sign in to the app as one of these users (the password of this run) to open an answer's debug record. */
  app: { url: string; open: string; password: string; users: AnswerRun["users"] };
  contenders: ContenderSummary[];
  /** The judge on the audit's vague wrong answers: its acceptance rate shows how lenient it is. */
  vagueAnswers: { judged: number; accepted: number; errors: number; acceptanceRate: number | null } | null;
  perQuestion: QuestionResult[];
  totalMs: number;
}

const fmt = (value: number | null, digits = 3) => (value === null ? "—" : value.toFixed(digits));
const pct = (value: number | null) => (value === null ? "—" : `${(value * 100).toFixed(1)}%`);

export function answersMarkdown(report: AnswersReport): string {
  const categories = Object.keys(report.contenders[0]?.byCategory ?? {});
  const header = [
    "contender",
    "F1",
    "F1 (corrected)",
    "judge",
    "judge (corrected)",
    ...categories.flatMap((c) => [`${c} F1`, `${c} judge`]),
    "prompt tokens",
    "input / output tokens",
    "p50 / p95 ms",
    "answer words",
  ];
  const rows = report.contenders.map((c) => [
    `\`${c.name}\``,
    fmt(c.overall.f1),
    fmt(c.overall.f1Corrected),
    pct(c.overall.judge),
    pct(c.overall.judgeCorrected),
    ...categories.flatMap((cat) => [fmt(c.byCategory[cat]?.f1 ?? null), pct(c.byCategory[cat]?.judge ?? null)]),
    fmt(c.tokens.promptMean, 0),
    `${fmt(c.tokens.inputMean, 0)} / ${fmt(c.tokens.outputMean, 0)}`,
    `${fmt(c.latencyMs.p50, 0)} / ${fmt(c.latencyMs.p95, 0)}`,
    fmt(c.answerWords, 1),
  ]);
  const n = report.contenders[0]?.overall.questions ?? 0;
  const perCategory = categories.map((c) => `${c} ${report.contenders[0]?.byCategory[c]?.questions ?? 0}`).join(", ");
  const vague = report.vagueAnswers;
  return [
    `# LoCoMo answers, ${report.generatedAt.slice(0, 10)}`,
    "",
    `- model: ${report.model}; judge: ${report.judge ? `${report.judge.model}, ${report.judge.prompt}` : "none (F1 only)"}`,
    `- embedder: ${report.embedder}; retrieval strategy: ${report.strategy}; memories: ${report.memories}`,
    `- questions: ${n} (${perCategory}) of samples ${report.dataset.samples.join(", ")}; ${report.dataset.corrected} with a gold answer the audit corrects; category 5 skipped`,
    `- judge on the audit's vague wrong answers: ${vague ? `${vague.accepted}/${vague.judged} accepted (${pct(vague.acceptanceRate)})` : "not run (no judge)"}`,
    `- tokens spent: ${report.budget.spent}${report.budget.limit === null ? "" : ` of a budget of ${report.budget.limit}`}${report.budget.stoppedByBudget ? " — stopped by the budget" : ""}`,
    "",
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? " --- " : " --: ")).join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    "",
  ].join("\n");
}
