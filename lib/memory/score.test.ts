import { describe, expect, it } from "vitest";
import { retrievalConfig } from "@/lib/config";
import { cosineSimilarity, rankCandidates, recencyOf, scoreCandidate, wholeDaysSince } from "./score";

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
    const scored = scoreCandidate({ similarity: 0.5, importance: 0.7, updatedAt: daysAgo(3) }, NOW, retrievalConfig);
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
      retrievalConfig,
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
      retrievalConfig,
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
      retrievalConfig,
    );
    expect(ranked.map((c) => c.id)).toEqual(["relevant", "nearest"]);
  });
});

describe("cosineSimilarity", () => {
  it("is 1 − (1 − cos) of the float4 components, NaN for a zero vector", () => {
    expect(cosineSimilarity([1, 0], [3, 4])).toBe(1 - (1 - 0.6));
    expect(cosineSimilarity([1, 0, 0, 0], [3, 9, 3, 1])).toBeGreaterThanOrEqual(0.3);
    expect(cosineSimilarity([2, 0], [-5, 0])).toBe(-1);
    expect(cosineSimilarity([0, 0], [1, 0])).toBeNaN();
    expect(() => cosineSimilarity([1], [1, 0])).toThrow("different vector dimensions");
  });
});
