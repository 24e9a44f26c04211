import { describe, expect, it } from "vitest";
import { calibrate, similarityDistribution } from "./calibrate";
import { percentile, type QueryOutcome, scoreQuery, summarise } from "./metrics";
import type { RunOutcome } from "./run";

const outcome = (overrides: Partial<RunOutcome>): RunOutcome => ({
  query: "q",
  category: "c",
  answerable: true,
  relevant: [],
  ranked: [],
  selectedCount: 0,
  prompt: [],
  latencyMs: 1,
  topSimilarity: null,
  similarities: [],
  textMatches: [],
  ...overrides,
});

describe("scoreQuery", () => {
  it("scores hit@5, hit@8, recall@5, MRR and nDCG@5 from the ranked list and the prompt", () => {
    const scores = scoreQuery(
      outcome({
        relevant: ["b", "x"],
        ranked: ["a", "b", "c", "d", "e", "f", "x"],
        selectedCount: 5,
        prompt: ["a", "b", "c", "d", "e"],
      }),
    );
    expect(scores).toEqual({
      hit5: 1,
      hit8: 1,
      recall5: 0.5,
      mrr: 0.5,
      ndcg5: 1 / Math.log2(3) / (1 + 1 / Math.log2(3)),
    });
  });

  it("counts only the selection for hit@5 and recall@5, but the whole listing for MRR", () => {
    const scores = scoreQuery(outcome({ relevant: ["f"], ranked: ["a", "b", "c", "d", "e", "f"], selectedCount: 5 }));
    expect(scores).toMatchObject({ hit5: 0, hit8: 0, recall5: 0, mrr: 1 / 6, ndcg5: 0 });
  });

  it("scores an answerable query whose relevant memories are missing from the data as a miss", () => {
    expect(scoreQuery(outcome({ relevant: [], ranked: ["a"], selectedCount: 1, prompt: ["a"] }))).toEqual({
      hit5: 0,
      hit8: 0,
      recall5: 0,
      mrr: 0,
      ndcg5: 0,
    });
  });
});

describe("summarise", () => {
  it("averages answerable queries per category, and reports no-answer queries apart", () => {
    const outcomes: QueryOutcome[] = [
      outcome({ category: "x", relevant: ["a"], ranked: ["a"], selectedCount: 1, prompt: ["a"], latencyMs: 1 }),
      outcome({ category: "x", relevant: ["b"], ranked: [], selectedCount: 0, latencyMs: 3 }),
      outcome({
        category: "y",
        relevant: ["c"],
        ranked: ["d", "c"],
        selectedCount: 2,
        prompt: ["c", "d"],
        latencyMs: 2,
      }),
      outcome({ category: "no-answer", answerable: false, ranked: [], selectedCount: 0, latencyMs: 4 }),
      outcome({ category: "no-answer", answerable: false, ranked: ["a"], selectedCount: 1, latencyMs: 5 }),
    ];
    const summary = summarise(outcomes);
    expect(summary.overall).toMatchObject({ queries: 3, hit5: 2 / 3, hit8: 2 / 3, mrr: 0.5, emptyShare: 1 / 3 });
    expect(Object.keys(summary.byCategory)).toEqual(["x", "y"]);
    expect(summary.byCategory.x).toMatchObject({ queries: 2, hit5: 0.5 });
    expect(summary.noAnswer).toEqual({ queries: 2, emptyShare: 0.5 });
    expect(summary.latencyMs.p50).toBe(3);
  });
});

describe("percentile", () => {
  it("interpolates between closest ranks", () => {
    expect(percentile([4, 1, 3, 2], 50)).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 95)).toBe(10.5);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("calibrate", () => {
  it("applies each threshold to the no-threshold ranking: empty share, hit@5, no-answer empty share", () => {
    const rows = calibrate(
      [
        outcome({ relevant: ["b"], ranked: ["a", "b"], similarities: [0.5, 0.2], textMatches: [false, true] }),
        outcome({ relevant: ["c"], ranked: ["c"], similarities: [0.1], textMatches: [false] }),
        outcome({ answerable: false, ranked: ["d"], similarities: [0.25], textMatches: [false] }),
      ],
      { semanticLimit: 5, textBypassesThreshold: false, thresholds: [0, 0.15, 0.3] },
    );
    expect(rows).toEqual([
      { threshold: 0, emptyShare: 0, hit5: 1, noAnswerEmptyShare: 0, unrelatedPassShare: 1 },
      { threshold: 0.15, emptyShare: 0.5, hit5: 0.5, noAnswerEmptyShare: 0, unrelatedPassShare: 1 },
      { threshold: 0.3, emptyShare: 0.5, hit5: 0, noAnswerEmptyShare: 1, unrelatedPassShare: 0 },
    ]);
    const bypass = calibrate(
      [outcome({ relevant: ["b"], ranked: ["a", "b"], similarities: [0.5, 0.2], textMatches: [false, true] })],
      { semanticLimit: 5, textBypassesThreshold: true, thresholds: [0.3] },
    );
    expect(bypass[0]).toMatchObject({ hit5: 1, unrelatedPassShare: null });
  });
});

describe("similarityDistribution", () => {
  it("splits the pairs into relevant, unrelated (no-answer queries) and other non-relevant, with percentiles", () => {
    const distribution = similarityDistribution([
      outcome({ relevant: ["b"], ranked: ["a", "b", "c"], similarities: [0.5, 0.4, 0.1] }),
      outcome({ relevant: ["a"], ranked: ["a", "b", "c"], similarities: [0.6, 0.2, 0] }),
      outcome({ answerable: false, ranked: ["a", "b", "c"], similarities: [0.3, -0.1, 0.1] }),
      outcome({ answerable: false, ranked: ["c", "a", "b"], similarities: [0.2, 0, -0.2] }),
    ]);
    expect(distribution.relevant).toMatchObject({ pairs: 2, p50: 0.5 });
    expect(distribution.relevant?.p5).toBeCloseTo(0.41, 10);
    expect(distribution.unrelated?.pairs).toBe(6);
    expect(distribution.unrelated?.p50).toBeCloseTo(0.05, 10);
    expect(distribution.otherNonRelevant?.pairs).toBe(4);
    expect(distribution.otherNonRelevant?.p25).toBeCloseTo(0.075, 10);
    expect(distribution.otherNonRelevant?.p75).toBeCloseTo(0.275, 10);
    expect(distribution.noAnswerBest?.pairs).toBe(2);
    expect(distribution.noAnswerBest?.p50).toBeCloseTo(0.25, 10);
    expect(similarityDistribution([outcome({ ranked: ["a"], similarities: [0.1] })]).unrelated).toBeNull();
  });
});
