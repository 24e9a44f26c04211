/** One evaluation: every dataset, every strategy, metrics, calibration — as an EvalReport. */

import { DEFAULT_RETRIEVAL_STRATEGY, retrievalStrategies } from "@/core/config";
import type { Database } from "@/db/client";
import { forEmbedder } from "@/lib/memory/retrieval/assembly-config";
import { calibrate, calibrationStrategy, similarityDistribution } from "./calibrate";
import type { EvalDataset } from "./dataset";
import { type Embedder, removeLeftoverEvalUsers } from "./load";
import { summarise } from "./metrics";
import type { DatasetReport, EvalReport } from "./report";
import { perQuery } from "./report";
import { type RunProgress, runDataset } from "./run";
import { isDefaultStrategy, resolveStrategies } from "./strategies";

export interface EvaluateOptions {
  embedder: Embedder;
  /** Strategy names (default: every one in core/config's retrievalStrategies). */
  strategies?: readonly string[];
  limit?: number;
  /** Calibrate the default strategy's threshold (one more run per query). Default true. */
  calibration?: boolean;
  progress?: RunProgress & { done?(): void };
}

const CALIBRATION = "__calibration__";

export async function evaluate(
  database: Database,
  datasets: readonly EvalDataset[],
  options: EvaluateOptions,
): Promise<EvalReport> {
  const started = performance.now();
  const strategies = resolveStrategies(options.strategies, options.embedder.id);
  await removeLeftoverEvalUsers(database.db);
  const reports: DatasetReport[] = [];
  for (const dataset of datasets) {
    const datasetStarted = performance.now();
    const largest = Math.max(...dataset.corpora.map((c) => c.memories.length));
    const defaultStrategy = forEmbedder(retrievalStrategies[DEFAULT_RETRIEVAL_STRATEGY], options.embedder.id);
    const runs =
      options.calibration === false
        ? strategies
        : [...strategies, { name: CALIBRATION, config: calibrationStrategy(defaultStrategy, largest) }];
    const run = await runDataset(database.db, dataset, {
      embedder: options.embedder,
      strategies: runs,
      limit: options.limit,
      progress: options.progress,
    });
    options.progress?.done?.();
    const calibrationOutcomes = run.outcomes[CALIBRATION];
    const queries = Object.values(run.outcomes)[0]?.length ?? 0;
    reports.push({
      name: dataset.name,
      source: dataset.source,
      notes: dataset.notes,
      corpora: dataset.corpora.length,
      memories: dataset.corpora.reduce((sum, c) => sum + c.memories.length, 0),
      queries,
      strategies: strategies.map((strategy) => ({
        name: strategy.name,
        isDefault: isDefaultStrategy(strategy.name),
        config: strategy.config,
        summary: summarise(run.outcomes[strategy.name] ?? []),
      })),
      calibration: calibrationOutcomes
        ? {
            strategy: DEFAULT_RETRIEVAL_STRATEGY,
            rows: calibrate(calibrationOutcomes, {
              semanticLimit: defaultStrategy.semanticLimit,
              textBypassesThreshold: defaultStrategy.fusion?.textBypassesThreshold ?? false,
            }),
            textBypassRows: defaultStrategy.fusion
              ? calibrate(calibrationOutcomes, {
                  semanticLimit: defaultStrategy.semanticLimit,
                  textBypassesThreshold: true,
                })
              : null,
            similarities: similarityDistribution(calibrationOutcomes),
          }
        : null,
      timings: { ...run.timings, totalMs: performance.now() - datasetStarted },
      perQuery: Object.fromEntries(strategies.map((s) => [s.name, perQuery(run.outcomes[s.name] ?? [])])),
    });
  }
  return {
    generatedAt: new Date().toISOString(),
    embedder: options.embedder.id,
    database: database.kind,
    node: process.version,
    datasets: reports,
    totalMs: performance.now() - started,
  };
}
