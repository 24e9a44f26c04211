/** Retrieval evaluation through the app's own storage, embedder and SQL (docs/evaluation.md). */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { type Database, openDatabase } from "@/db/client";
import { type AiRegistry, createAiRegistry } from "@/lib/ai/registry";
import { offlineEmbeddingModels } from "@/lib/offline";
import { runAnswersCli } from "./answers/cli";
import { list, locomoPath } from "./args";
import { DatasetError, type EvalDataset, loadDatasetFile } from "./dataset";
import { evaluate } from "./evaluate";
import { evaluateExtraction, formatExtractionReport } from "./extraction";
import { loadExtractionDataset } from "./extraction-dataset";
import type { Embedder } from "./load";
import { loadLocomo } from "./locomo";
import { progressBar } from "./progress";
import { type EvalReport, formatComparison, formatDatasetReport, svgChart } from "./report";
import { STRATEGY_NAMES } from "./strategies";

export const PROJECT_DATASET = path.join("eval", "datasets", "lifeline-judged.json");
export const PARAPHRASE_DATASET = path.join("eval", "datasets", "paraphrase-judged.json");
export const DATED_DATASET = path.join("eval", "datasets", "dated-judged.json");
/** Every offline embedder's id ("offline/<model>"), the older first: the default comparison without a key. */
export const OFFLINE_EMBEDDER_IDS = [...offlineEmbeddingModels.keys()].reverse().map((model) => `offline/${model}`);

const HELP = `npm run eval -- [flags]

  --dataset locomo|project|paraphrase|dated|PATH
                                  dataset(s), repeatable or comma-separated (default: locomo,project,paraphrase,dated)
  --embedders ID,ID               embedders to compare (default: offline, every offline embedder:
                                  ${OFFLINE_EMBEDDER_IDS.join(",")}; else the configured one)
  --strategies a,b                strategies to compare (default: ${STRATEGY_NAMES.join(",")})
  --limit N                       at most N queries per dataset
  --samples ID,ID                 LoCoMo samples by sample_id (conv-26) or 0-based index
  --locomo PATH                   locomo10.json (default: $LOCOMO_PATH or ../shared/eval/locomo/locomo10.json)
  --out FILE.json                 results JSON (the SVG chart goes next to it; default eval/results/eval-<time>.json)
  --skip-calibration              do not run the threshold calibration
  --extraction                    instead: the extraction evaluation (judged set through the real extraction job)
  --extraction-dataset PATH       its dataset (default: eval/datasets/extraction-judged.json)
  --split dev|holdout|all         extraction cases to run (default: all; both splits are reported)
  --cases ID,ID                   only these extraction cases
  --misses                        list every extraction case that missed, with what was extracted
  --answers                       instead: LoCoMo question answering through the chat turn
                                  (its flags: npm run eval -- --answers --help)
  --help

Database: Postgres when DATABASE_URL is set (evaluation users are created and deleted),
else an in-memory PGlite. Embedder: the app's registry (OPENAI_API_KEY / OPENAI_BASE_URL, else offline);
--embedders takes offline ids always, and the configured embedder's id;
--extraction also uses its extraction model (LIFELINE_EXTRACTION_MODEL, else the default chat model).`;

export const EXTRACTION_DATASET = path.join("eval", "datasets", "extraction-judged.json");

export interface CliOptions {
  datasets: string[];
  embedders?: string[];
  strategies?: string[];
  limit?: number;
  samples?: string[];
  locomoPath: string;
  out: string;
  calibration: boolean;
  extraction?: {
    dataset: string;
    split: "all" | "dev" | "holdout";
    cases?: string[];
    misses: boolean;
  };
  help: boolean;
}

export function parseCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  repoRoot: string,
  now = new Date(),
): CliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      dataset: { type: "string", multiple: true },
      strategies: { type: "string", multiple: true },
      embedders: { type: "string", multiple: true },
      limit: { type: "string" },
      samples: { type: "string", multiple: true },
      locomo: { type: "string" },
      out: { type: "string" },
      "skip-calibration": { type: "boolean" },
      extraction: { type: "boolean" },
      "extraction-dataset": { type: "string" },
      split: { type: "string" },
      cases: { type: "string", multiple: true },
      misses: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`--limit must be a positive integer, got "${values.limit}"`);
  }
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const datasets = list(values.dataset);
  const split = values.split ?? "all";
  if (split !== "all" && split !== "dev" && split !== "holdout")
    throw new Error(`--split must be dev, holdout or all, got "${values.split}"`);
  const extraction = values.extraction
    ? {
        dataset: path.resolve(repoRoot, values["extraction-dataset"] ?? EXTRACTION_DATASET),
        split: split as "all" | "dev" | "holdout",
        cases: list(values.cases).length ? list(values.cases) : undefined,
        misses: values.misses ?? false,
      }
    : undefined;
  return {
    datasets: datasets.length ? datasets : ["locomo", "project", "paraphrase", "dated"],
    embedders: list(values.embedders).length ? list(values.embedders) : undefined,
    strategies: list(values.strategies).length ? list(values.strategies) : undefined,
    limit,
    samples: list(values.samples).length ? list(values.samples) : undefined,
    locomoPath: locomoPath(values.locomo, env, repoRoot),
    out: path.resolve(
      repoRoot,
      values.out ?? path.join("eval", "results", `${extraction ? "extraction" : "eval"}-${stamp}.json`),
    ),
    calibration: !values["skip-calibration"],
    extraction,
    help: values.help ?? false,
  };
}

export async function loadDatasets(options: CliOptions, repoRoot: string, now: Date): Promise<EvalDataset[]> {
  return Promise.all(
    options.datasets.map((name) => {
      if (name === "locomo") return loadLocomo(options.locomoPath, options.samples);
      const file =
        name === "project"
          ? path.join(repoRoot, PROJECT_DATASET)
          : name === "paraphrase"
            ? path.join(repoRoot, PARAPHRASE_DATASET)
            : name === "dated"
              ? path.join(repoRoot, DATED_DATASET)
              : path.resolve(repoRoot, name);
      return loadDatasetFile(file, now);
    }),
  );
}

async function openEvalDatabase(env: NodeJS.ProcessEnv): Promise<Database> {
  if (env.DATABASE_URL) return openDatabase({ kind: "postgres", url: env.DATABASE_URL, migrate: true, max: 2 });
  return openDatabase({ kind: "pglite", migrate: true });
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const repoRoot = process.cwd();
  if (argv.includes("--answers")) return runAnswersCli(argv, env, repoRoot);
  const now = new Date();
  let options: CliOptions;
  try {
    options = parseCli(argv, env, repoRoot, now);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (options.help) {
    console.log(HELP);
    return 0;
  }
  if (options.extraction) return runExtractionEval(options, options.extraction, env, repoRoot);

  let datasets: EvalDataset[];
  try {
    datasets = await loadDatasets(options, repoRoot, now);
  } catch (error) {
    if (error instanceof DatasetError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }

  const registry = createAiRegistry(env);
  for (const warning of registry.config.warnings) console.error(`warning: ${warning}`);
  let embedders: Embedder[];
  try {
    embedders = embeddersFor(options.embedders, registry, env);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const database = await openEvalDatabase(env);
  console.error(`embedders ${embedders.map((e) => e.id).join(", ")}, database ${database.kind}`);
  const reports: EvalReport[] = [];
  try {
    for (const embedder of embedders) {
      reports.push(
        await evaluate(database, datasets, {
          embedder,
          strategies: options.strategies,
          limit: options.limit,
          calibration: options.calibration,
          progress: progressBar(),
        }),
      );
    }
  } finally {
    await database.close();
  }

  console.log("");
  for (const report of reports) {
    console.log(`=== embedder ${report.embedder} ===\n`);
    for (const dataset of report.datasets) console.log(`${formatDatasetReport(dataset)}\n`);
  }
  if (reports.length > 1) console.log(`${formatComparison(reports)}\n`);
  await mkdir(path.dirname(options.out), { recursive: true });
  const base = options.out.replace(/\.json$/i, "");
  const charts = reports.map((report) =>
    reports.length === 1 ? `${base}.svg` : `${base}.${report.embedder.replace(/[^a-z0-9.-]+/gi, "_")}.svg`,
  );
  const json = reports.length === 1 ? reports[0] : { reports };
  await writeFile(options.out, `${JSON.stringify(json, null, 2)}\n`);
  for (const [i, report] of reports.entries()) await writeFile(charts[i] as string, svgChart(report));
  console.log(`results: ${path.relative(repoRoot, options.out)}`);
  for (const chart of charts) console.log(`chart:   ${path.relative(repoRoot, chart)}`);
  console.log(`total ${(reports.reduce((sum, r) => sum + r.totalMs, 0) / 1000).toFixed(1)}s`);
  return 0;
}

export function embeddersFor(
  ids: readonly string[] | undefined,
  registry: AiRegistry,
  env: Readonly<Record<string, string | undefined>>,
): Embedder[] {
  const configured = registry.describeProviders().embedder;
  const chosen = ids ?? (registry.config.provider === "offline" ? OFFLINE_EMBEDDER_IDS : [configured]);
  return chosen.map((id) => {
    if (id === configured) return { id, embed: (texts) => registry.embedTexts(texts) };
    const model = id.replace(/^offline\//, "");
    if (!id.startsWith("offline/") || !offlineEmbeddingModels.has(model)) {
      throw new Error(
        `--embedders: "${id}" is neither an offline embedder (${OFFLINE_EMBEDDER_IDS.join(", ")}) nor the configured ${configured}`,
      );
    }
    const offline = createAiRegistry({ LIFELINE_EMBEDDING_MODEL: model, NODE_ENV: env.NODE_ENV });
    return { id, embed: (texts) => offline.embedTexts(texts) };
  });
}

async function runExtractionEval(
  options: CliOptions,
  extraction: NonNullable<CliOptions["extraction"]>,
  env: NodeJS.ProcessEnv,
  repoRoot: string,
): Promise<number> {
  let dataset: Awaited<ReturnType<typeof loadExtractionDataset>>;
  try {
    dataset = await loadExtractionDataset(extraction.dataset);
  } catch (error) {
    if (error instanceof DatasetError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  const registry = createAiRegistry(env);
  for (const warning of registry.config.warnings) console.error(`warning: ${warning}`);
  const modelId = `${registry.config.provider}/${registry.config.extractionModel}`;
  const database = await openEvalDatabase(env);
  console.error(`model ${modelId}, embedder ${registry.describeProviders().embedder}, database ${database.kind}`);
  const progress = progressBar();
  let report: Awaited<ReturnType<typeof evaluateExtraction>>;
  try {
    report = await evaluateExtraction(
      database.db,
      dataset,
      {
        model: registry.getExtractionModel(),
        modelId,
        embed: (texts) => registry.embedTexts(texts),
        embeddingModel: registry.describeProviders().embedder,
      },
      { database: database.kind, split: extraction.split, limit: options.limit, ids: extraction.cases, progress },
    );
  } finally {
    progress.done();
    await database.close();
  }
  console.log(`\n${formatExtractionReport(report, { misses: extraction.misses })}\n`);
  await mkdir(path.dirname(options.out), { recursive: true });
  await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`results: ${path.relative(repoRoot, options.out)}`);
  console.log(`total ${(report.totalMs / 1000).toFixed(1)}s`);
  return 0;
}

const invokedDirectly = process.argv[1] !== undefined && /eval[\\/]cli\.ts$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
