/** Runs a dataset through the real retrieval path (countAccess false: the runs do not influence each other). */

import { formatterConfig } from "@/core/config";
import type { Db } from "@/db/client";
import { formatMemories } from "@/lib/memory/retrieval/format";
import { retrieveSemantic, type SemanticConfig } from "@/lib/memory/retrieval/retrieve";
import type { EvalDataset } from "./dataset";
import { type Embedder, embedInBatches, loadCorpus, removeCorpus } from "./load";
import type { QueryOutcome } from "./metrics";

export interface NamedStrategy {
  name: string;
  config: SemanticConfig;
}

export interface RunOutcome extends QueryOutcome {
  similarities: readonly number[];
  /** Whether each of `ranked` matched a query term (hybrid only; else all false). */
  textMatches: readonly boolean[];
}

export interface DatasetRun {
  outcomes: Record<string, RunOutcome[]>;
  timings: { loadMs: number; embedQueriesMs: number; retrieveMs: number };
}

export interface RunProgress {
  start(total: number, label: string): void;
  tick(steps: number): void;
}

const silent: RunProgress = { start: () => {}, tick: () => {} };

export async function runDataset(
  db: Db,
  dataset: EvalDataset,
  options: { embedder: Embedder; strategies: readonly NamedStrategy[]; limit?: number; progress?: RunProgress },
): Promise<DatasetRun> {
  const { embedder, strategies, progress = silent } = options;
  const corpora = limitQueries(dataset, options.limit);
  const total = corpora.reduce((sum, c) => sum + c.memories.length + c.queries.length * strategies.length, 0);
  progress.start(total, dataset.name);
  const outcomes: Record<string, RunOutcome[]> = Object.fromEntries(strategies.map((s) => [s.name, []]));
  const timings = { loadMs: 0, embedQueriesMs: 0, retrieveMs: 0 };

  for (const corpus of corpora) {
    let started = performance.now();
    const loaded = await loadCorpus(db, corpus, embedder, (n) => progress.tick(n));
    timings.loadMs += performance.now() - started;
    try {
      started = performance.now();
      const vectors = await embedInBatches(
        embedder,
        corpus.queries.map((q) => q.text),
      );
      timings.embedQueriesMs += performance.now() - started;
      started = performance.now();
      for (const [i, query] of corpus.queries.entries()) {
        const embedding = vectors[i];
        if (!embedding) throw new Error(`no embedding for query ${query.key}`);
        for (const strategy of strategies) {
          const t0 = performance.now();
          const result = await retrieveSemantic(db, {
            userId: loaded.userId,
            embedding,
            embeddingModel: embedder.id,
            text: query.text,
            now: corpus.now,
            config: strategy.config,
          });
          const latencyMs = performance.now() - t0;
          const selected = result.candidates.filter((c) => c.selected);
          const formatted = formatMemories(selected, formatterConfig);
          const key = (id: string) => loaded.keyOf.get(id) ?? id;
          outcomes[strategy.name]?.push({
            query: query.key,
            category: query.category,
            answerable: query.answerable,
            relevant: query.relevant,
            ranked: result.candidates.map((c) => key(c.id)),
            selectedCount: selected.length,
            prompt: formatted.memories.filter((m) => m.included).map((m) => key(m.id)),
            latencyMs,
            topSimilarity: result.candidates.reduce<number | null>(
              (max, c) => Math.max(max ?? c.similarity, c.similarity),
              null,
            ),
            similarities: result.candidates.map((c) => c.similarity),
            textMatches: result.candidates.map((c) => c.textRank != null),
          });
          progress.tick(1);
        }
      }
      timings.retrieveMs += performance.now() - started;
    } finally {
      await removeCorpus(db, loaded);
    }
  }
  return { outcomes, timings };
}

function limitQueries(dataset: EvalDataset, limit: number | undefined) {
  if (limit === undefined) return dataset.corpora;
  let left = limit;
  return dataset.corpora.flatMap((corpus) => {
    if (left <= 0) return [];
    const queries = corpus.queries.slice(0, left);
    left -= queries.length;
    return [{ ...corpus, queries }];
  });
}
