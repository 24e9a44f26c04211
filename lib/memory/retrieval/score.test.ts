import { describe, expect, it } from "vitest";
import { retrievalStrategies } from "@/core/config";
import { dateWindowOf } from "./date-window";
import {
  bm25Scores,
  cosineSimilarity,
  type FusionConfig,
  fusedRelevance,
  rankCandidates,
  recencyOf,
  scoreCandidate,
  wholeDaysSince,
} from "./score";

/** The original Lifeline's formula: threshold 0.3, 0.6/0.3/0.1 — the formula tests below are about it. */
const weighted = retrievalStrategies.weighted;

const NOW = new Date("2025-06-15T12:00:00.000Z");
const DAY = 86_400_000;
const daysAgo = (days: number, extraMs = 0) => new Date(NOW.getTime() - days * DAY - extraMs);

describe("recency", () => {
  it.each([
    [0, 0, 1],
    [0, DAY - 1, 1],
    [1, 0, 1 - 1 / 30],
    [29, 0, 1 - 29 / 30],
    [29, DAY - 1, 1 - 29 / 30],
    [30, 0, 0],
    [31, 0, 0],
    [365, 0, 0],
  ])("%i days (+%i ms) ago → %f", (days, extraMs, expected) => {
    expect(recencyOf(daysAgo(days, extraMs), NOW, 30)).toBe(expected);
  });

  it("counts whole days and treats a future timestamp as 0 days old", () => {
    expect(wholeDaysSince(daysAgo(2, DAY - 1), NOW)).toBe(2);
    expect(wholeDaysSince(new Date(NOW.getTime() + DAY), NOW)).toBe(0);
    expect(recencyOf(new Date(NOW.getTime() + 5 * DAY), NOW, 30)).toBe(1);
  });
});

describe("scoreCandidate", () => {
  it("weights similarity, float4 importance and recency", () => {
    const scored = scoreCandidate({ similarity: 0.5, importance: 0.7, updatedAt: daysAgo(3) }, NOW, weighted);
    expect(scored.importance).toBe(Math.fround(0.7));
    expect(scored.importance).not.toBe(0.7);
    expect(scored).toEqual({
      similarity: 0.5,
      importance: Math.fround(0.7),
      recency: 0.9,
      score: 0.6 * 0.5 + 0.3 * Math.fround(0.7) + 0.1 * 0.9,
    });
  });
});

describe("rankCandidates", () => {
  const candidate = (id: string, similarity: number, importance = 0.5, updatedAt = NOW) => ({
    id,
    similarity,
    importance,
    updatedAt,
  });

  it("keeps a similarity of exactly the threshold and drops anything below it, whatever its importance", () => {
    const ranked = rankCandidates(
      [candidate("a", 0.3, 0), candidate("b", 0.29999999, 1), candidate("c", Number.NaN, 1)],
      NOW,
      weighted,
    );
    expect(ranked.map((c) => c.id)).toEqual(["a"]);
  });

  it("orders by score desc, breaks ties by id, ranks from 1 and selects the first semanticLimit", () => {
    const ranked = rankCandidates(
      [
        candidate("f", 0.9),
        candidate("c", 0.5),
        candidate("a", 0.5),
        candidate("e", 0.95),
        candidate("b", 0.5),
        candidate("d", 0.4),
        candidate("g", 0.8),
      ],
      NOW,
      weighted,
    );
    expect(ranked.map((c) => [c.id, c.rank, c.selected])).toEqual([
      ["e", 1, true],
      ["f", 2, true],
      ["g", 3, true],
      ["a", 4, true],
      ["b", 5, true],
      ["c", 6, false],
      ["d", 7, false],
    ]);
  });

  it("lets a moderately similar, important, recent memory outrank the nearest old, unimportant one", () => {
    const ranked = rankCandidates(
      [candidate("nearest", 0.92, 0.2, daysAgo(60)), candidate("relevant", 0.71, 0.9, daysAgo(1))],
      NOW,
      weighted,
    );
    expect(ranked.map((c) => c.id)).toEqual(["relevant", "nearest"]);
  });
});

describe("cosineSimilarity", () => {
  it("computes on the half-precision components memories.embedding stores", () => {
    // 1 + 2^-11 is not a half (its spacing at 1 is 2^-10): stored, it rounds to 1, so the two vectors
    // are parallel and the similarity is exactly 1; in float4 it would not be.
    expect(cosineSimilarity([1 + 2 ** -11, 1], [1, 1])).toBe(1);
    expect(cosineSimilarity([1 + 2 ** -10, 1], [1, 1])).toBeLessThan(1);
    expect(cosineSimilarity([0.1, 0.2], [0.2, 0.1])).toBe(
      (Math.f16round(0.1) * Math.f16round(0.2) * 2) / (Math.f16round(0.1) ** 2 + Math.f16round(0.2) ** 2),
    );
  });

  it("is 1 − (1 − cos) of the components, NaN for a zero vector", () => {
    expect(cosineSimilarity([1, 0], [3, 4])).toBe(1 - (1 - 0.6));
    expect(cosineSimilarity([1, 0, 0, 0], [3, 9, 3, 1])).toBeGreaterThanOrEqual(0.3);
    expect(cosineSimilarity([2, 0], [-5, 0])).toBe(-1);
    expect(cosineSimilarity([0, 0], [1, 0])).toBeNaN();
    expect(() => cosineSimilarity([1], [1, 0])).toThrow("different vector dimensions");
  });
});

describe("fusion (hybrid)", () => {
  const fusion: FusionConfig = {
    rrfK: 10,
    vectorWeight: 1,
    textWeight: 2,
    bm25K1: 1.2,
    bm25B: 0.75,
    textBypassesThreshold: false,
  };
  const config = { ...weighted, weights: { similarity: 1, importance: 0, recency: 0 }, fusion };
  const input = (id: string, similarity: number, textScore?: number) => ({
    id,
    similarity,
    importance: 0.5,
    updatedAt: NOW,
    ...(textScore === undefined ? {} : { textScore }),
  });

  it("normalises reciprocal rank fusion to 1 for a memory first in both rankings", () => {
    expect(fusedRelevance(1, 1, fusion)).toBe(1);
    expect(fusedRelevance(1, null, fusion)).toBeCloseTo(1 / 3, 12);
    expect(fusedRelevance(3, 2, fusion)).toBeCloseTo((1 / 13 + 2 / 12) / (3 / 11), 12);
  });

  it("ranks by the fused relevance: a strong text match lifts a less similar memory", () => {
    const ranked = rankCandidates(
      [input("near", 0.9), input("word", 0.6, 4.2), input("both", 0.7, 1.1), input("far", 0.35)],
      NOW,
      config,
    );
    // word: 1/13 + 2/11 > both: 1/12 + 2/12 > near: 1/11 > far: 1/14 (before normalising)
    expect(ranked.map((c) => [c.id, c.vectorRank, c.textRank])).toEqual([
      ["word", 3, 1],
      ["both", 2, 2],
      ["near", 1, null],
      ["far", 4, null],
    ]);
    expect(ranked[0]?.relevance).toBe(fusedRelevance(3, 1, fusion));
    expect(ranked[0]?.score).toBe(ranked[0]?.relevance);
    expect(ranked[2]).toMatchObject({ textScore: null });
  });

  it("ranks before the threshold, which still filters on similarity unless text matches may pass", () => {
    const inputs = [input("near", 0.9), input("word", 0.2, 3), input("nan", Number.NaN, 9)];
    const strict = rankCandidates(inputs, NOW, config);
    expect(strict.map((c) => [c.id, c.vectorRank])).toEqual([["near", 1]]);
    const bypass = rankCandidates(inputs, NOW, { ...config, fusion: { ...fusion, textBypassesThreshold: true } });
    expect(bypass.map((c) => [c.id, c.vectorRank, c.textRank])).toEqual([
      ["word", 2, 1],
      ["near", 1, null],
    ]);
  });
});

describe("bm25Scores", () => {
  const doc = (id: string, terms: Record<string, number>) => ({ id, terms: new Map(Object.entries(terms)) });

  it("weighs rare terms over common ones and saturates term frequency", () => {
    const docs = [
      doc("a", { tea: 1, green: 1 }),
      doc("b", { tea: 1, coffe: 1 }),
      doc("c", { tea: 3, lisbon: 1 }),
      doc("d", { lisbon: 1 }),
    ];
    const scores = bm25Scores(docs, ["green", "tea"], { k1: 1.2, b: 0.75 });
    expect([...scores.keys()].sort()).toEqual(["a", "b", "c"]);
    const idf = (df: number) => Math.log(1 + (4 - df + 0.5) / (df + 0.5));
    const avgLen = (2 + 2 + 4 + 1) / 4;
    const term = (tf: number, len: number, df: number) =>
      (idf(df) * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * len) / avgLen));
    expect(scores.get("a")).toBeCloseTo(term(1, 2, 1) + term(1, 2, 3), 12);
    expect(scores.get("b")).toBeCloseTo(term(1, 2, 3), 12);
    expect(scores.get("c")).toBeCloseTo(term(3, 4, 3), 12);
    expect(scores.get("a") ?? 0).toBeGreaterThan(scores.get("c") ?? 0);
  });

  it("ignores repeated query terms and returns nothing when no term matches", () => {
    const docs = [doc("a", { tea: 1 })];
    expect(bm25Scores(docs, ["tea", "tea"], { k1: 1.2, b: 0.75 })).toEqual(
      bm25Scores(docs, ["tea"], { k1: 1.2, b: 0.75 }),
    );
    expect(bm25Scores(docs, ["coffe"], { k1: 1.2, b: 0.75 }).size).toBe(0);
  });
});

describe("date window", () => {
  const hybrid = retrievalStrategies.hybrid;
  const window = dateWindowOf("What did I do in May 2025?", hybrid.dateWindow.daysAfter);
  const input = (id: string, createdAt: Date) => ({
    id,
    similarity: 0.5,
    importance: 0.5,
    updatedAt: daysAgo(40),
    createdAt,
  });

  it("adds the weight to memories created in [start, end + daysAfter), and nothing else", () => {
    expect(window).not.toBeNull();
    const plain = scoreCandidate(input("x", daysAgo(40)), NOW, hybrid);
    const at = (iso: string) => scoreCandidate(input("x", new Date(iso)), NOW, hybrid, window);
    expect(plain).not.toHaveProperty("dateMatch");
    expect(at("2025-05-01T00:00:00.000Z")).toEqual({ ...plain, dateMatch: 1, score: plain.score + 0.5 });
    expect(at("2025-06-07T23:59:59.999Z").dateMatch).toBe(1);
    expect(at("2025-06-08T00:00:00.000Z")).toEqual({ ...plain, dateMatch: 0, score: plain.score });
    expect(at("2025-04-30T23:59:59.999Z").dateMatch).toBe(0);
  });

  it("is inert without a window or without the strategy's dateWindow", () => {
    const inMay = input("x", new Date("2025-05-10T00:00:00Z"));
    expect(scoreCandidate(inMay, NOW, weighted, window)).toEqual(scoreCandidate(inMay, NOW, weighted));
    expect(scoreCandidate(inMay, NOW, hybrid, null)).not.toHaveProperty("dateMatch");
  });

  it("reorders: a memory of the named month passes a closer one from another month", () => {
    const ranked = rankCandidates(
      [
        { ...input("a-june", new Date("2025-06-20T00:00:00Z")), similarity: 0.9 },
        { ...input("b-may", new Date("2025-05-10T00:00:00Z")), similarity: 0.6 },
      ],
      NOW,
      { ...hybrid, fusion: null, similarityThreshold: 0.3 },
      window,
    );
    expect(ranked.map((c) => [c.id, c.dateMatch])).toEqual([
      ["b-may", 1],
      ["a-june", 0],
    ]);
  });
});
