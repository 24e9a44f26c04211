/**
 * Retrieval metrics: hit@5 (semantic selection), hit@8 (prompt lines), recall@5, MRR (≤ 20 listed),
 * nDCG@5 (binary). Queries with nothing relevant count only in `noAnswerEmpty`.
 */

export interface QueryOutcome {
  query: string;
  category: string;
  answerable: boolean;
  relevant: readonly string[];
  ranked: readonly string[];
  selectedCount: number;
  prompt: readonly string[];
  latencyMs: number;
  /** Null: none listed. */
  topSimilarity: number | null;
}

export interface QueryScores {
  hit5: number;
  hit8: number;
  recall5: number;
  mrr: number;
  ndcg5: number;
}

export interface Aggregate extends QueryScores {
  queries: number;
  emptyShare: number;
}

export interface Summary {
  overall: Aggregate;
  byCategory: Record<string, Aggregate>;
  /** Queries with nothing relevant, and the share of them that got no memory (null: there are none). */
  noAnswer: { queries: number; emptyShare: number | null };
  latencyMs: { p50: number; p95: number; mean: number };
}

export function scoreQuery(outcome: QueryOutcome): QueryScores {
  const relevant = new Set(outcome.relevant);
  const selected = outcome.ranked.slice(0, outcome.selectedCount);
  const top5 = selected.slice(0, 5);
  const firstRelevant = outcome.ranked.findIndex((key) => relevant.has(key));
  const dcg = top5.reduce((sum, key, i) => sum + (relevant.has(key) ? 1 / Math.log2(i + 2) : 0), 0);
  let ideal = 0;
  for (let i = 0; i < Math.min(5, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return {
    hit5: top5.some((key) => relevant.has(key)) ? 1 : 0,
    hit8: outcome.prompt.some((key) => relevant.has(key)) ? 1 : 0,
    recall5: relevant.size === 0 ? 0 : top5.filter((key) => relevant.has(key)).length / relevant.size,
    mrr: firstRelevant < 0 ? 0 : 1 / (firstRelevant + 1),
    ndcg5: ideal === 0 ? 0 : dcg / ideal,
  };
}

/** Linear interpolation between closest ranks; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const a = sorted[lower] ?? Number.NaN;
  const b = sorted[upper] ?? Number.NaN;
  return a + (b - a) * (position - lower);
}

function aggregate(outcomes: readonly QueryOutcome[]): Aggregate {
  const scores = outcomes.map(scoreQuery);
  const mean = (pick: (s: QueryScores) => number) =>
    scores.length === 0 ? Number.NaN : scores.reduce((sum, s) => sum + pick(s), 0) / scores.length;
  return {
    queries: outcomes.length,
    hit5: mean((s) => s.hit5),
    hit8: mean((s) => s.hit8),
    recall5: mean((s) => s.recall5),
    mrr: mean((s) => s.mrr),
    ndcg5: mean((s) => s.ndcg5),
    emptyShare:
      outcomes.length === 0 ? Number.NaN : outcomes.filter((o) => o.selectedCount === 0).length / outcomes.length,
  };
}

export function summarise(outcomes: readonly QueryOutcome[]): Summary {
  const answerable = outcomes.filter((o) => o.answerable);
  const unanswerable = outcomes.filter((o) => !o.answerable);
  const categories = [...new Set(answerable.map((o) => o.category))].sort();
  const latencies = outcomes.map((o) => o.latencyMs);
  return {
    overall: aggregate(answerable),
    byCategory: Object.fromEntries(
      categories.map((category) => [category, aggregate(answerable.filter((o) => o.category === category))]),
    ),
    noAnswer: {
      queries: unanswerable.length,
      emptyShare:
        unanswerable.length === 0
          ? null
          : unanswerable.filter((o) => o.selectedCount === 0).length / unanswerable.length,
    },
    latencyMs: {
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      mean: latencies.length === 0 ? Number.NaN : latencies.reduce((a, b) => a + b, 0) / latencies.length,
    },
  };
}
