/** One run with no threshold lists every candidate; its scores do not depend on the threshold, so one applied afterwards selects exactly what a run at it would. */
import type { SemanticConfig } from "@/lib/memory/retrieval/retrieve";
import type { RunOutcome } from "./run";

export const CALIBRATION_THRESHOLDS = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7] as const;

export interface CalibrationRow {
  threshold: number;
  emptyShare: number;
  hit5: number;
  /** Null: no such query in the data. */
  noAnswerEmptyShare: number | null;
  /** Unrelated pairs whose similarity passes: what the threshold is there to rule out. */
  unrelatedPassShare: number | null;
}

export interface SimilarityPercentiles {
  pairs: number;
  p5: number;
  p25: number;
  p50: number;
  p75: number;
  p95: number;
}

export interface SimilarityDistribution {
  /** a query and a memory judged relevant to it */
  relevant: SimilarityPercentiles | null;
  /** a query with nothing relevant (`relevant: []`) and every memory: unrelated by the judgement */
  unrelated: SimilarityPercentiles | null;
  /** an answerable query and the memories not judged relevant to it (near neighbours included) */
  otherNonRelevant: SimilarityPercentiles | null;
  /** the highest similarity of each query with nothing relevant: what a threshold must exceed to leave it empty */
  noAnswerBest: SimilarityPercentiles | null;
}

function percentiles(values: number[]): SimilarityPercentiles | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => {
    const position = (p / 100) * (sorted.length - 1);
    const lower = Math.floor(position);
    const a = sorted[lower] as number;
    const b = sorted[Math.ceil(position)] as number;
    return a + (b - a) * (position - lower);
  };
  return { pairs: sorted.length, p5: at(5), p25: at(25), p50: at(50), p75: at(75), p95: at(95) };
}

export function similarityDistribution(outcomes: readonly RunOutcome[]): SimilarityDistribution {
  const relevant: number[] = [];
  const unrelated: number[] = [];
  const other: number[] = [];
  const best: number[] = [];
  for (const o of outcomes) {
    const judged = new Set(o.relevant);
    if (!o.answerable) {
      unrelated.push(...o.similarities);
      if (o.similarities.length > 0) best.push(Math.max(...o.similarities));
      continue;
    }
    o.ranked.forEach((key, i) => {
      const similarity = o.similarities[i];
      if (similarity !== undefined) (judged.has(key) ? relevant : other).push(similarity);
    });
  }
  return {
    relevant: percentiles(relevant),
    unrelated: percentiles(unrelated),
    otherNonRelevant: percentiles(other),
    noAnswerBest: percentiles(best),
  };
}

/** `listAll` must be at least the largest corpus. */
export function calibrationStrategy(strategy: SemanticConfig, listAll: number): SemanticConfig {
  const { similarityThresholds: _ignored, ...rest } = strategy;
  return {
    ...rest,
    strategy: `${strategy.strategy ?? "strategy"} (calibration)`,
    similarityThreshold: -1,
    traceCandidateLimit: listAll,
  };
}

export function calibrate(
  outcomes: readonly RunOutcome[],
  options: { semanticLimit: number; textBypassesThreshold: boolean; thresholds?: readonly number[] },
): CalibrationRow[] {
  const answerable = outcomes.filter((o) => o.answerable);
  const unanswerable = outcomes.filter((o) => !o.answerable);
  const unrelated = unanswerable.flatMap((o) => o.similarities);
  const share = (items: readonly RunOutcome[], test: (o: RunOutcome) => boolean) =>
    items.length === 0 ? Number.NaN : items.filter(test).length / items.length;
  return (options.thresholds ?? CALIBRATION_THRESHOLDS).map((threshold) => {
    const kept = (o: RunOutcome) =>
      o.ranked.filter(
        (_, i) =>
          (o.similarities[i] ?? Number.NEGATIVE_INFINITY) >= threshold ||
          (options.textBypassesThreshold && o.textMatches[i] === true),
      );
    const hit = (o: RunOutcome) => {
      const relevant = new Set(o.relevant);
      return kept(o)
        .slice(0, options.semanticLimit)
        .some((key) => relevant.has(key));
    };
    return {
      threshold,
      emptyShare: share(answerable, (o) => kept(o).length === 0),
      hit5: share(answerable, hit),
      noAnswerEmptyShare: unanswerable.length === 0 ? null : share(unanswerable, (o) => kept(o).length === 0),
      unrelatedPassShare:
        unrelated.length === 0 ? null : unrelated.filter((s) => s >= threshold).length / unrelated.length,
    };
  });
}
