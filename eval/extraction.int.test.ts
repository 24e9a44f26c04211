/**
 * A slice of the judged extraction set, end to end on both databases: the real extraction job
 * (offline model, offline embedder), prior memories stored first, consolidation's supersede
 * decisions read back from the database. Asserts the targets of docs/evaluation.md § Extraction on
 * this slice. The full set runs with `npm run eval -- --extraction`.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { createAiRegistry } from "@/lib/ai/registry";
import { DB_KINDS } from "@/tests/db";
import { useTestDatabase } from "@/tests/test-database";
import { EXTRACTION_DATASET } from "./cli";
import { EXTRACTION_TARGETS, evaluateExtraction, formatExtractionReport } from "./extraction";
import { loadExtractionDataset } from "./extraction-dataset";

/** Every kind of case: questions and hypotheticals that used to become facts, each contradiction phrasing, third parties. */
const SLICE = [
  "fact-allergy-shellfish",
  "deadline-plumber",
  "question-fav-city",
  "question-which-favorite",
  "question-allergic-what",
  "hypo-berlin-visa",
  "hypo-quit-job",
  "asst-moved-porto",
  "asst-peanuts-noted",
  "neg-lisbon",
  "neg-vegetarian",
  "neg-acme",
  "neg-coffee",
  "move-from-to",
  "move-relocated-sf",
  "move-leeds-now",
  "change-now-live-porto",
  "change-these-days-globex",
  "change-sister-mia",
  "change-age-35",
  "third-sister-lisbon",
  "third-dad-florida",
  "update-kreuzberg",
  "dup-lisbon",
];

describe.each(DB_KINDS)("npm run eval -- --extraction on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("meets the targets on a slice of the judged set, through the real job", async () => {
    const registry = createAiRegistry({});
    const dataset = await loadExtractionDataset(path.join(process.cwd(), EXTRACTION_DATASET));
    const report = await evaluateExtraction(
      database.db,
      dataset,
      {
        model: registry.getExtractionModel(),
        modelId: "offline",
        embed: (texts) => registry.embedTexts(texts),
        embeddingModel: registry.describeProviders().embedder,
      },
      { database: kind, ids: SLICE },
    );
    const summary = formatExtractionReport(report, { misses: true });

    expect(report.overall.cases, summary).toBe(SLICE.length);
    expect(report.overall.errors, summary).toBe(0);
    expect(report.negative.falsePositives, summary).toBe(0);
    expect(report.overall.precision ?? 0, summary).toBeGreaterThanOrEqual(EXTRACTION_TARGETS.precision);
    expect(report.overall.recall ?? 0, summary).toBeGreaterThanOrEqual(EXTRACTION_TARGETS.recall);
    expect(report.contradictions.cases, summary).toBe(11);
    expect(report.contradictions.superseded, summary).toBe(report.contradictions.cases);
    expect(report.overall.unexpectedChanges, summary).toBe(0);
    expect(report.targets, summary).toEqual({
      precision: true,
      noFalseFacts: true,
      recall: true,
      everyContradictionSuperseded: true,
    });
    // What was superseded is really stored so: the job's decision and the prior's status agree.
    const moved = report.perCase.find((c) => c.id === "move-from-to");
    expect(moved?.decision).toMatchObject({ action: "supersede", ok: true, actual: "supersede (superseded)" });
    expect(moved?.candidates.map((c) => c.content)).toEqual(["Lives in Porto"]);
    expect(await database.db.select({ id: users.id }).from(users)).toEqual([]);
  });
});
