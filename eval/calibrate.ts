/**
 * Threshold calibration: how many queries are left with no memory at all, and how many hits are
 * lost, as the similarity threshold rises. Computed from one run of a strategy with no threshold
 * that lists every candidate (`calibrationStrategy`): its scores do not depend on the threshold
 * (the fused rankings are taken before it), so applying a threshold afterwards gives exactly what
 * a run at that threshold would select.
 */
import type { SemanticConfig } from "@/lib/memory/retrieval/retrieve";
import type { RunOutcome } from "./run";

export const CALIBRATION_THRESHOLDS = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7] as const;

export interface CalibrationRow {
  threshold: number;
  /** Answerable queries for which no memory passes the threshold. */
  emptyShare: number;
  /** hit@5 of the strategy at this threshold. */
  hit5: number;
  /** Queries with nothing relevant for which no memory passes (the right outcome); null: none in the data. */
  noAnswerEmptyShare: number | null;
}

/** `strategy` without a threshold, listing every candidate (`listAll` ≥ the largest corpus). */
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
    };
  });
}
