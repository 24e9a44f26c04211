/** `npm run eval -- --answers [flags]`: see docs/evaluation.md § Answers. */
import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { logger } from "@/core/logger";
import { type Database, openDatabase } from "@/db/client";
import { type AiRegistry, createAiRegistry } from "@/lib/ai/registry";
import { detachedScheduler, setBackgroundScheduler } from "@/lib/jobs/after-response";
import { processAssemblyConfig, retrievalStrategyName } from "@/lib/runtime";
import { list, locomoPath, SHARED_LOCOMO_DIR } from "../args";
import { DatasetError } from "../dataset";
import { progressBar } from "../progress";
import { estimateExtraction, estimateJudge, estimateTurn, TokenBudget } from "./budget";
import { type AnswerSample, type Audit, loadAnswerSamples, loadAudit, sessionText } from "./dataset";
import { JUDGE_PROMPT_SOURCE } from "./judge";
import { exchanges, MEMORY_MODES, type MemoryMode } from "./memories";
import { type AnswersReport, answersMarkdown, summarise } from "./report";
import { CONTENDERS, type Contender, runAnswers } from "./run";

export const ANSWERS_HELP = `npm run eval -- --answers [flags]

  --samples ID,ID          LoCoMo samples by sample_id (conv-26) or 0-based index (default: all 10)
  --sample N               the first N answerable questions of each sample (default: all)
  --contenders a,b         of ${CONTENDERS.join(",")} (default: all three)
  --memories MODE          ${MEMORY_MODES.join(" | ")} (default: observations)
  --judge-model ID         the judge (default: the default chat model; none without a configured model;
                           "none": F1 only)
  --vague N                vague wrong answers the judge is asked about (default 100)
  --concurrency N          chat turns at once (default 1)
  --budget TOKENS          stop before spending more model tokens than this (default: no limit)
  --dry-run                print the calls and tokens the run would make, and make none
  --locomo PATH            locomo10.json (default: $LOCOMO_PATH or ../shared/eval/locomo/locomo10.json)
  --audit DIR              the LoCoMo audit's files (default: ../shared/eval/locomo/audit)
  --data-dir DIR           the PGlite database the run writes and keeps (default: .lifeline/eval-answers;
                           with DATABASE_URL, that Postgres)
  --app-url URL            where you open the app, for the debug links (default: http://localhost:3000)
  --out FILE.json          results (default: eval/results/answers-<time>.json; the Markdown table beside it)`;

export interface AnswersOptions {
  samples?: string[];
  perSample?: number;
  contenders: Contender[];
  memories: MemoryMode;
  judgeModel: string | null | undefined;
  vague: number;
  concurrency: number;
  budget: number | null;
  dryRun: boolean;
  locomoPath: string;
  auditDir: string;
  dataDir: string;
  appUrl: string;
  out: string;
  help: boolean;
}

function positive(name: string, value: string | undefined, min = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

export function parseAnswersCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  repoRoot: string,
  now = new Date(),
): AnswersOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      answers: { type: "boolean" },
      samples: { type: "string" },
      sample: { type: "string" },
      contenders: { type: "string" },
      memories: { type: "string" },
      "judge-model": { type: "string" },
      vague: { type: "string" },
      concurrency: { type: "string" },
      budget: { type: "string" },
      "dry-run": { type: "boolean" },
      locomo: { type: "string" },
      audit: { type: "string" },
      "data-dir": { type: "string" },
      "app-url": { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  const contenders = list(values.contenders);
  const unknown = contenders.find((c) => !(CONTENDERS as readonly string[]).includes(c));
  if (unknown) throw new Error(`--contenders: "${unknown}" is not one of ${CONTENDERS.join(", ")}`);
  const memories = values.memories ?? "observations";
  if (!(MEMORY_MODES as readonly string[]).includes(memories)) {
    throw new Error(`--memories must be ${MEMORY_MODES.join(" or ")}, got "${memories}"`);
  }
  const judgeModel = values["judge-model"];
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return {
    samples: list(values.samples).length ? list(values.samples) : undefined,
    perSample: positive("sample", values.sample),
    contenders: (contenders.length ? contenders : [...CONTENDERS]) as Contender[],
    memories: memories as MemoryMode,
    judgeModel: judgeModel === "none" ? null : judgeModel,
    vague: positive("vague", values.vague, 0) ?? 100,
    concurrency: positive("concurrency", values.concurrency) ?? 1,
    budget: positive("budget", values.budget) ?? null,
    dryRun: values["dry-run"] ?? false,
    locomoPath: locomoPath(values.locomo, env, repoRoot),
    auditDir: path.resolve(repoRoot, values.audit ?? path.join(SHARED_LOCOMO_DIR, "audit")),
    dataDir: path.resolve(repoRoot, values["data-dir"] ?? path.join(".lifeline", "eval-answers")),
    appUrl: values["app-url"] ?? "http://localhost:3000",
    out: path.resolve(repoRoot, values.out ?? path.join("eval", "results", `answers-${stamp}.json`)),
    help: values.help ?? false,
  };
}

export function judgeModelId(options: Pick<AnswersOptions, "judgeModel">, registry: AiRegistry): string | null {
  if (options.judgeModel === null) return null;
  if (options.judgeModel !== undefined) return options.judgeModel;
  return registry.config.provider === "offline" ? null : registry.config.defaultChatModel;
}

export function dryRunPlan(
  samples: readonly AnswerSample[],
  audit: Audit,
  options: Pick<AnswersOptions, "perSample" | "contenders" | "memories" | "vague" | "budget">,
  judge: string | null,
): string[] {
  const rows = new Map<string, { calls: number; tokens: number }>();
  const add = (what: string, tokens: number) => {
    const row = rows.get(what) ?? { calls: 0, tokens: 0 };
    row.calls++;
    row.tokens += tokens;
    rows.set(what, row);
  };
  const answer = "x ".repeat(60).trim();
  let questions = 0;
  for (const sample of samples) {
    if (options.memories === "extracted" && options.contenders.includes("lifeline")) {
      for (const session of sample.sessions) {
        for (const exchange of exchanges(session, sample.speakers[0]))
          add("extraction job", estimateExtraction(exchange));
      }
    }
    const history = sample.sessions.map(sessionText);
    const chosen = options.perSample === undefined ? sample.questions : sample.questions.slice(0, options.perSample);
    for (const question of chosen) {
      questions++;
      for (const contender of options.contenders) {
        add(
          `chat turn: ${contender}`,
          estimateTurn({
            message: question.question,
            memoryEnabled: contender === "lifeline",
            ...(contender === "full-context" ? { history } : {}),
          }),
        );
        if (!judge) continue;
        add("judge", estimateJudge({ question: question.question, gold: question.gold, answer }));
        const corrected = audit.corrected.get(question.id);
        if (corrected) add("judge", estimateJudge({ question: question.question, gold: corrected.answer, answer }));
      }
    }
  }
  if (judge) {
    const all = samples.flatMap((s) =>
      options.perSample === undefined ? s.questions : s.questions.slice(0, options.perSample),
    );
    for (const question of all.slice(0, options.vague)) {
      const vague = audit.vague.get(question.id);
      if (vague !== undefined)
        add("judge: vague answers", estimateJudge({ question: question.question, gold: question.gold, answer: vague }));
    }
  }
  const total = [...rows.values()].reduce((sum, row) => sum + row.tokens, 0);
  return [
    `dry run: ${questions} questions of ${samples.length} sample(s), contenders ${options.contenders.join(", ")}, memories ${options.memories}, judge ${judge ?? "none"}`,
    ...[...rows.entries()].map(
      ([what, row]) => `  ${what.padEnd(26)} ${String(row.calls).padStart(6)} calls  ~${row.tokens} tokens`,
    ),
    `  total estimate: ~${total} model tokens (Lifeline's tokenizer; answers counted at ${answer.split(" ").length} words for the judge; a turn's memory-tool calls not foreseen)`,
    options.budget === null
      ? "  no budget set (--budget TOKENS)"
      : `  budget ${options.budget}: ${total > options.budget ? "the run would stop before the end" : "enough for this estimate"}`,
  ];
}

async function openAnswersDatabase(
  env: Record<string, string | undefined>,
  dataDir: string,
): Promise<{ database: Database; location: string; open: string }> {
  if (env.DATABASE_URL) {
    return {
      database: await openDatabase({ kind: "postgres", url: env.DATABASE_URL, migrate: true, max: 4 }),
      location: "DATABASE_URL",
      open: "npm run dev (with the same DATABASE_URL)",
    };
  }
  return {
    database: await openDatabase({ kind: "pglite", dataDir, migrate: true }),
    location: dataDir,
    open: `LIFELINE_DATA_DIR=${path.relative(process.cwd(), dataDir) || dataDir} npm run dev (stop any other server on that directory first)`,
  };
}

export async function runAnswersCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  repoRoot: string,
): Promise<number> {
  let options: AnswersOptions;
  try {
    options = parseAnswersCli(argv, env, repoRoot);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${ANSWERS_HELP}`);
    return 2;
  }
  if (options.help) {
    console.log(ANSWERS_HELP);
    return 0;
  }
  // A script has no request scope: the chat turn's after-response work runs detached (and is awaited).
  setBackgroundScheduler(detachedScheduler);
  // The offline model paces its words for reading (15 ms each) unless told otherwise; a run measures the pipeline.
  process.env.LIFELINE_OFFLINE_DELAY_MS ??= "0";
  let samples: AnswerSample[];
  let audit: Audit;
  try {
    [samples, audit] = await Promise.all([
      loadAnswerSamples(options.locomoPath, options.samples),
      loadAudit(options.auditDir),
    ]);
  } catch (error) {
    if (error instanceof DatasetError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  const registry = createAiRegistry(env);
  for (const warning of registry.config.warnings) console.error(`warning: ${warning}`);
  const judge = judgeModelId(options, registry);
  if (judge !== null && !registry.isKnownChatModel(judge)) {
    console.error(
      `--judge-model: "${judge}" is not a configured chat model (${registry.config.chatModels.map((m) => m.id).join(", ")}); set LIFELINE_CHAT_MODELS`,
    );
    return 2;
  }
  if (options.dryRun) {
    for (const line of dryRunPlan(samples, audit, options, judge)) console.log(line);
    return 0;
  }
  const report = await runAnswersEval(options, { samples, audit, registry, judge, env });
  console.log(`\n${answersMarkdown(report)}`);
  await mkdir(path.dirname(options.out), { recursive: true });
  const markdown = `${options.out.replace(/\.json$/i, "")}.md`;
  await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(markdown, answersMarkdown(report));
  console.log(`results: ${path.relative(repoRoot, options.out)}\ntable:   ${path.relative(repoRoot, markdown)}`);
  console.log(
    `open the answers: ${report.app.open}, then sign in as ${report.app.users[0]?.email ?? "—"} (one user per sample) with the password ${report.app.password}`,
  );
  console.log(`total ${(report.totalMs / 1000).toFixed(1)}s`);
  return 0;
}

export async function runAnswersEval(
  options: AnswersOptions,
  input: {
    samples: AnswerSample[];
    audit: Audit;
    registry: AiRegistry;
    judge: string | null;
    env: Record<string, string | undefined>;
    database?: Database;
  },
): Promise<AnswersReport> {
  const started = performance.now();
  const { registry, judge } = input;
  const opened = input.database
    ? { database: input.database, location: input.database.kind, open: "npm run dev on that database" }
    : await openAnswersDatabase(input.env, options.dataDir);
  const embedder = {
    id: registry.describeProviders().embedder,
    embed: (texts: string[]) => registry.embedTexts(texts),
  };
  const budget = new TokenBudget(options.budget);
  const progress = progressBar();
  const generatedAt = new Date();
  let run: Awaited<ReturnType<typeof runAnswers>>;
  try {
    run = await runAnswers(opened.database.db, registry, embedder, {
      samples: input.samples,
      audit: input.audit,
      locomoPath: options.locomoPath,
      perSample: options.perSample,
      contenders: options.contenders,
      memories: options.memories,
      assembly: processAssemblyConfig(input.env),
      judgeModel: judge === null ? null : registry.getLanguageModel(judge),
      vagueSample: options.vague,
      concurrency: options.concurrency,
      budget,
      runId: answersRunId(generatedAt),
      appUrl: options.appUrl,
      progress,
      log: logger,
    });
  } finally {
    progress.done();
    if (!input.database) await opened.database.close();
  }
  const questions = run.questions.filter((q) => Object.keys(q.answers).length > 0);
  return {
    generatedAt: generatedAt.toISOString(),
    model: registry.describeProviders().model,
    judge:
      judge === null
        ? null
        : { model: `${registry.config.provider}/${judge}`, prompt: JUDGE_PROMPT_SOURCE, temperature: 0 },
    embedder: embedder.id,
    strategy: retrievalStrategyName(input.env),
    memories: options.memories,
    database: { kind: opened.database.kind, location: opened.location },
    dataset: {
      locomo: options.locomoPath,
      audit: input.audit.source,
      samples: input.samples.map((s) => s.sampleId),
      questions: questions.length,
      corrected: questions.filter((q) => q.corrected !== null).length,
      category5: "skipped",
    },
    budget: { limit: options.budget, spent: budget.spent, stoppedByBudget: run.stoppedByBudget },
    app: { url: options.appUrl, open: opened.open, password: run.password, users: run.users },
    contenders: summarise(questions, options.contenders),
    vagueAnswers: run.vague && {
      ...run.vague,
      acceptanceRate: run.vague.judged === 0 ? null : run.vague.accepted / run.vague.judged,
    },
    perQuestion: questions,
    totalMs: performance.now() - started,
  };
}

/**
 * Names the run's users (`<runId>-<sample>@…`) and memory corpora: its start to the second, readable in a kept
 * database, and a random part, so two runs started in the same second on one database never share an email.
 */
export function answersRunId(startedAt: Date): string {
  const second = startedAt
    .toISOString()
    .replace(/[-:.TZ]/g, "")
    .slice(0, 14);
  return `answers-${second}-${randomUUID().slice(0, 8)}`;
}
