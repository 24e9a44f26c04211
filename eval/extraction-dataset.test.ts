import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXTRACTION_DATASET, parseCli } from "./cli";
import { DatasetError } from "./dataset";
import {
  CONTRADICTION_CATEGORIES,
  EXTRACTION_CATEGORIES,
  extractionDatasetFromJson,
  loadExtractionDataset,
  matchesExpected,
  NEGATIVE_CATEGORIES,
} from "./extraction-dataset";

describe("the judged extraction set", () => {
  it("has at least 120 valid cases covering every category, a part of it written blind", async () => {
    const dataset = await loadExtractionDataset(path.join(process.cwd(), EXTRACTION_DATASET));
    expect(dataset.cases.length).toBeGreaterThanOrEqual(120);
    const count = (category: string) => dataset.cases.filter((c) => c.category === category).length;
    for (const category of EXTRACTION_CATEGORIES) expect(count(category), category).toBeGreaterThanOrEqual(5);
    for (const category of ["question", "hypothetical", "assistant_only", "third_party"])
      expect(count(category), category).toBeGreaterThanOrEqual(12);
    const contradictions = dataset.cases.filter((c) =>
      (CONTRADICTION_CATEGORIES as readonly string[]).includes(c.category),
    );
    expect(contradictions.length).toBeGreaterThanOrEqual(25);
    for (const c of contradictions) expect(c.prior?.some((p) => p.id === c.decision?.target)).toBe(true);
    const negatives = dataset.cases.filter((c) => (NEGATIVE_CATEGORIES as readonly string[]).includes(c.category));
    for (const c of negatives) expect(c.expected.filter((e) => !e.optional)).toEqual([]);
    // Cases written before the rules they test: today's hold-out, and earlier rounds' hold-outs, which
    // move to dev (marked `formerly`) once their outputs have been seen.
    const writtenBlind = dataset.cases.filter((c) => c.split === "holdout" || c.formerly === "holdout").length;
    expect(writtenBlind / dataset.cases.length).toBeGreaterThan(0.2);
    for (const c of dataset.cases.filter((c) => c.formerly === "holdout")) expect(c.split, c.id).toBe("dev");
  });

  it("reports every problem with its JSON path", () => {
    const bad = {
      name: "x",
      current_date: "2026-11-30",
      cases: [
        { id: "a", category: "move", user: "I moved to Porto", assistant: "ok", expected: [{ keywords: ["porto"] }] },
        { id: "a", category: "question", user: "Where do I live?", assistant: "?", expected: [{ keywords: ["x"] }] },
        {
          id: "b",
          category: "negation",
          prior: [{ id: "p", content: "Lives in Lisbon" }],
          user: "I don't live in Lisbon",
          assistant: "ok",
          expected: [],
          decision: { action: "supersede", target: "q" },
        },
      ],
    };
    expect(() => extractionDatasetFromJson(bad, "bad.json")).toThrow(DatasetError);
    try {
      extractionDatasetFromJson(bad, "bad.json");
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain("cases[0].decision: a move case needs a supersede decision");
      expect(message).toContain('cases[1].id: duplicate case id "a"');
      expect(message).toContain("cases[1].expected: a question case expects no required memory");
      expect(message).toContain('cases[2].decision.target: unknown prior memory id "q"');
    }
  });
});

describe("matchesExpected", () => {
  const memory = (content: string, type = "personal", deadline: string | null = null) =>
    ({ content, type, deadline }) as Parameters<typeof matchesExpected>[0];

  it("needs every keyword group (any alternative, at a word start), the type and the deadline", () => {
    expect(matchesExpected(memory("Sister Maya lives in Lisbon"), { keywords: ["maya|sister", "lisbon"] })).toBe(true);
    expect(matchesExpected(memory("Lives in Lisbon"), { keywords: ["maya|sister", "lisbon"] })).toBe(false);
    expect(matchesExpected(memory("Favourite colour is green"), { keywords: ["favorite color"] })).toBe(true);
    expect(matchesExpected(memory("Is allergic to cats"), { keywords: ["allerg"], type: ["fact"] })).toBe(false);
    expect(matchesExpected(memory("Is allergic to cats", "fact"), { keywords: ["allerg"], type: ["fact"] })).toBe(true);
    expect(matchesExpected(memory("Renews passport"), { keywords: ["port"] })).toBe(false);
    const task = memory("Needs to renew passport by 2026-12-04", "actionable", "2026-12-04");
    expect(matchesExpected(task, { keywords: ["passport"], deadline: "2026-12-04" })).toBe(true);
    expect(matchesExpected(task, { keywords: ["passport"], deadline: "2026-12-05" })).toBe(false);
  });
});

describe("npm run eval -- --extraction", () => {
  it("parses the extraction flags", () => {
    const options = parseCli(
      ["--extraction", "--split", "dev", "--cases", "a,b", "--misses"],
      {},
      "/repo",
      new Date(0),
    );
    expect(options.extraction).toEqual({
      dataset: path.join("/repo", EXTRACTION_DATASET),
      split: "dev",
      cases: ["a", "b"],
      misses: true,
    });
    expect(options.out).toMatch(/eval\/results\/extraction-1970-01-01T00-00-00-000Z\.json$/);
    expect(() => parseCli(["--extraction", "--split", "test"], {}, "/repo")).toThrow(/--split/);
    expect(parseCli([], {}, "/repo").extraction).toBeUndefined();
  });
});
