/**
 * Smoke test of `npm run eval` on both databases: the project's judged set (a few queries)
 * through the real storage, offline embedder and SQL, every strategy, metrics and calibration.
 * The full runs (LoCoMo: minutes) stay out of the suite; see docs/evaluation.md.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRIEVAL_STRATEGY } from "@/core/config";
import { users } from "@/db/schema";
import { createAiRegistry } from "@/lib/ai/registry";
import { DB_KINDS } from "@/tests/db";
import { useTestDatabase } from "@/tests/test-database";
import { PROJECT_DATASET } from "./cli";
import { loadDatasetFile } from "./dataset";
import { evaluate } from "./evaluate";
import { formatDatasetReport, svgChart } from "./report";
import { STRATEGY_NAMES } from "./strategies";

describe.each(DB_KINDS)("npm run eval on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("runs the judged set through every strategy, scores it and cleans up", async () => {
    const registry = createAiRegistry({});
    const embedder = {
      id: registry.describeProviders().embedder,
      embed: (texts: string[]) => registry.embedTexts(texts),
    };
    const dataset = await loadDatasetFile(path.join(process.cwd(), PROJECT_DATASET), new Date());
    const report = await evaluate(database, [dataset], { embedder, limit: 6 });

    const [result] = report.datasets;
    if (!result) throw new Error("no dataset report");
    expect(result.queries).toBe(6);
    expect(result.strategies.map((s) => s.name)).toEqual(STRATEGY_NAMES);
    expect(result.strategies.find((s) => s.isDefault)?.name).toBe(DEFAULT_RETRIEVAL_STRATEGY);
    for (const strategy of result.strategies) {
      const { overall, latencyMs } = strategy.summary;
      expect(overall.queries).toBe(6);
      for (const value of [overall.hit5, overall.hit8, overall.recall5, overall.mrr, overall.ndcg5]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
      expect(latencyMs.p95).toBeGreaterThanOrEqual(latencyMs.p50);
    }
    // "What's my sister called?" and friends: plain facts every strategy finds.
    const nearest = result.perQuery.nearest ?? [];
    expect(nearest.find((q) => q.query === "fact-sister")?.hit5).toBe(1);
    expect(result.strategies.find((s) => s.name === "nearest")?.summary.overall.hit5).toBeGreaterThanOrEqual(0.5);
    expect(result.calibration?.rows[0]).toMatchObject({ threshold: 0, emptyShare: 0 });

    // Every memory was listed in the calibration run: 6 answerable queries × 152 memories.
    const { relevant, otherNonRelevant } = result.calibration?.similarities ?? {};
    expect((relevant?.pairs ?? 0) + (otherNonRelevant?.pairs ?? 0)).toBe(6 * result.memories);
    expect(relevant?.p50).toBeGreaterThan(otherNonRelevant?.p50 ?? 1);

    expect(formatDatasetReport(result)).toContain("hit@5");
    expect(formatDatasetReport(result)).toMatch(/Cosine similarity of pairs[\s\S]*relevant \(query, judged memory\)/);
    expect(svgChart(report)).toMatch(/^<svg[\s\S]*<\/svg>\n$/);
    // The evaluation user and its memories are gone.
    expect(await database.db.select({ id: users.id }).from(users)).toEqual([]);
  });
});
