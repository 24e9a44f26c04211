import { describe, expect, it } from "vitest";
import { retrievalStrategies } from "@/core/config";
import { dateWindowSummary, pathSummary, scoreFormula, strategySummary } from "./explain";

describe("scoreFormula", () => {
  it("spells out the hybrid formula with its weights, the fusion and the threshold", () => {
    expect(scoreFormula({ ...retrievalStrategies.hybrid, similarityThreshold: 0.1 })).toBe(
      "score = 0.8·relevance + 0.1·importance + 0.1·recency; " +
        "relevance = (1/(5 + vector rank) + 2/(5 + text rank)) / (3/6) — the similarity ranking fused with the BM25 word ranking (no word in common: that term is 0); " +
        "recency = 1 − days since last update / 30 (at least 0); only similarity ≥ 0.1 is ranked; " +
        "+ 0.5 when the message names a month or a day with its year and the memory was created then or up to 7 days after.",
    );
  });

  it("uses the similarity itself without fusion, and says when there is no threshold", () => {
    expect(scoreFormula(retrievalStrategies.weighted)).toBe(
      "score = 0.6·similarity + 0.3·importance + 0.1·recency; recency = 1 − days since last update / 30 (at least 0); only similarity ≥ 0.3 is ranked.",
    );
    expect(scoreFormula(retrievalStrategies.nearest)).toMatch(/score = 1·similarity .*; every memory is ranked/);
  });

  it("summarises the strategy in force and its numbers", () => {
    expect(strategySummary({ ...retrievalStrategies.hybrid, similarityThreshold: 0.1 })).toBe(
      "hybrid — similarity threshold 0.1; weights 0.8 relevance · 0.1 importance · 0.1 recency; vector and word (BM25) rankings fused (RRF, k = 5)",
    );
    expect(strategySummary(retrievalStrategies.weighted)).toBe(
      "weighted — similarity threshold 0.3; weights 0.6 similarity · 0.3 importance · 0.1 recency; no fusion",
    );
    expect(strategySummary(retrievalStrategies.nearest)).toMatch(/^nearest — no similarity threshold; .*; no fusion$/);
  });
});

describe("pathSummary", () => {
  it("names the statement that answered, and a fallback", () => {
    expect(pathSummary({ path: "fast", certified: true }, 5)).toBe("fast path — certified equal to the exact top 5");
    expect(pathSummary({ path: "exact", certified: false }, 5)).toBe(
      "exact statement — the fast path could not certify its top 5",
    );
    expect(pathSummary({ path: "exact", certified: null }, 5)).toBe("exact statement (every memory scored)");
    const index = {
      memories: 12_000,
      minMemories: 5_000,
      asked: 200,
      returned: 200,
      scored: 214,
      efSearch: 200,
      iterativeScan: "relaxed_order" as const,
      maxScanTuples: 20_000,
      fellBack: false,
    };
    expect(pathSummary({ path: "approximate", index }, 5)).toBe(
      "approximate — 12,000 memories (over 5,000): the HNSW index's 200 nearest and 14 text matches scored (ef_search 200, relaxed_order)",
    );
    expect(pathSummary({ path: "approximate", index: { ...index, scored: 200 } }, 5)).toBe(
      "approximate — 12,000 memories (over 5,000): the HNSW index's 200 nearest scored (ef_search 200, relaxed_order)",
    );
    const twoStage = {
      memories: 30_000,
      minMemories: 10_000,
      asked: 200,
      returned: 200,
      index: "memories_user_code_idx",
    };
    expect(pathSummary({ path: "two-stage", index: { ...twoStage, scored: 231 } }, 5)).toBe(
      "two-stage — 30,000 memories (over 10,000): the 200 nearest by sign code (memories_user_code_idx, 200 asked) and 31 text matches scored on their exact distances",
    );
    expect(pathSummary({ path: "two-stage", index: { ...twoStage, returned: 150, scored: 150 } }, 5)).toBe(
      "two-stage — 30,000 memories (over 10,000): the 150 nearest by sign code (memories_user_code_idx, 200 asked) scored on their exact distances",
    );
    expect(pathSummary({ path: "exact", index: { ...index, returned: 120, fellBack: true } }, 5)).toBe(
      "exact statement — the HNSW index returned 120 of 200 candidates",
    );
    expect(pathSummary({}, 5)).toBeNull();
    expect(pathSummary(null, 5)).toBeNull();
  });
});

describe("dateWindowSummary", () => {
  it("names the window's first and last day (its end is exclusive), in UTC, and the bonus", () => {
    expect(dateWindowSummary({ start: "2023-05-01T00:00:00.000Z", end: "2023-06-08T00:00:00.000Z" }, 0.5)).toBe(
      "This message names a date: memories created from 1 May 2023 to 7 June 2023 (UTC) scored 0.5 more.",
    );
    expect(dateWindowSummary(null, 0.5)).toBeNull();
    expect(dateWindowSummary(undefined, 0.5)).toBeNull();
  });
});
