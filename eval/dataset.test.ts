import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createAiRegistry } from "@/lib/ai/registry";
import { embedOffline } from "@/lib/offline/embedder";
import { embedWordVec, WORDVEC_V1_SETTINGS, WORDVEC_V2_SETTINGS } from "@/lib/offline/wordvec-embedder";
import { embeddersFor, parseCli } from "./cli";
import { DatasetError, datasetFromJson } from "./dataset";
import { diaIds, parseSessionDate } from "./locomo";

const NOW = new Date("2025-06-15T12:00:00.000Z");

describe("datasetFromJson", () => {
  it("turns the file format into one corpus: ages become timestamps, defaults filled in", () => {
    const dataset = datasetFromJson(
      {
        name: "tiny",
        memories: [
          { id: "m1", content: "Prefers green tea", title: "Drink", type: "preference", importance: 0.7, age_days: 2 },
          { id: "m2", content: "Lives in Lisbon" },
        ],
        queries: [
          { id: "q1", text: "What tea do I like?", relevant: ["m1"], category: "preference" },
          { id: "q2", text: "Capital of Peru?", relevant: [] },
        ],
      },
      "tiny.json",
      NOW,
    );
    const [corpus] = dataset.corpora;
    expect(corpus?.memories).toEqual([
      {
        key: "m1",
        content: "Prefers green tea",
        title: "Drink",
        type: "preference",
        importance: 0.7,
        createdAt: new Date("2025-06-13T12:00:00.000Z"),
        updatedAt: new Date("2025-06-13T12:00:00.000Z"),
      },
      {
        key: "m2",
        content: "Lives in Lisbon",
        title: null,
        type: "personal",
        importance: 0.5,
        createdAt: NOW,
        updatedAt: NOW,
      },
    ]);
    expect(corpus?.queries.map((q) => [q.key, q.category, q.answerable])).toEqual([
      ["q1", "preference", true],
      ["q2", "no-answer", false],
    ]);
  });

  it("lists every problem with its path", () => {
    const bad = {
      memories: [
        { id: "m1", content: "x", importance: 2 },
        { id: "m1", content: "y", color: "red" },
      ],
      queries: [{ id: "q1", text: "?", relevant: ["m9"] }],
    };
    expect(() => datasetFromJson(bad, "bad.json", NOW)).toThrow(DatasetError);
    try {
      datasetFromJson(bad, "bad.json", NOW);
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain("bad.json is not a valid dataset");
      expect(message).toContain("memories[0].importance");
      expect(message).toMatch(/memories\[1\].*color/);
    }
    expect(() =>
      datasetFromJson(
        {
          memories: [
            { id: "m1", content: "x" },
            { id: "m1", content: "y" },
          ],
          queries: [{ id: "q", text: "t", relevant: ["m2"] }],
        },
        "dup.json",
        NOW,
      ),
    ).toThrow(/memories\[1\]\.id: duplicate memory id "m1"[\s\S]*queries\[0\]\.relevant\[0\]: unknown memory id "m2"/);
  });

  it("dates a memory by created_at (a date is midnight UTC), never by both created_at and age_days", () => {
    const dataset = datasetFromJson(
      {
        memories: [
          { id: "m1", content: "Ran a race", created_at: "2025-09-21" },
          { id: "m2", content: "Saw the GP", created_at: "2025-03-04T18:30:00+01:00" },
        ],
        queries: [{ id: "q1", text: "What race did I run in September 2025?", relevant: ["m1"] }],
      },
      "dated.json",
      NOW,
    );
    expect(dataset.corpora[0]?.memories.map((m) => [m.createdAt.toISOString(), m.updatedAt.toISOString()])).toEqual([
      ["2025-09-21T00:00:00.000Z", "2025-09-21T00:00:00.000Z"],
      ["2025-03-04T17:30:00.000Z", "2025-03-04T17:30:00.000Z"],
    ]);
    const both = {
      memories: [{ id: "m1", content: "x", age_days: 3, created_at: "2025-01-01" }],
      queries: [{ id: "q", text: "t", relevant: [] }],
    };
    expect(() => datasetFromJson(both, "both.json", NOW)).toThrow(
      /memories\[0\]\.created_at: give age_days or created_at, not both/,
    );
    const bad = {
      memories: [{ id: "m1", content: "x", created_at: "2025-13-01" }],
      queries: [{ id: "q", text: "t", relevant: [] }],
    };
    expect(() => datasetFromJson(bad, "bad.json", NOW)).toThrow(/memories\[0\]\.created_at/);
  });

  it("accepts the dated judged set (≥ 12 dated questions, memories of one topic in different months)", () => {
    const file = path.join(process.cwd(), "eval", "datasets", "dated-judged.json");
    const [corpus] = datasetFromJson(JSON.parse(readFileSync(file, "utf8")), file, NOW).corpora;
    expect(corpus?.queries.filter((q) => /\b(19|20)\d\d\b/.test(q.text)).length).toBeGreaterThanOrEqual(12);
    expect(new Set(corpus?.memories.map((m) => m.createdAt.toISOString().slice(0, 7))).size).toBeGreaterThanOrEqual(12);
  });

  it("accepts the project's judged set (≥ 150 memories, ≥ 60 queries)", () => {
    const file = path.join(process.cwd(), "eval", "datasets", "lifeline-judged.json");
    const dataset = datasetFromJson(JSON.parse(readFileSync(file, "utf8")), file, NOW);
    const [corpus] = dataset.corpora;
    expect(corpus?.memories.length).toBeGreaterThanOrEqual(150);
    expect(corpus?.queries.length).toBeGreaterThanOrEqual(60);
    const categories = new Set(corpus?.queries.map((q) => q.category));
    for (const category of ["recency", "importance", "stable", "no-answer"]) expect(categories).toContain(category);
  });
});

describe("LoCoMo parsing", () => {
  it("reads session dates as UTC", () => {
    expect(parseSessionDate("1:56 pm on 8 May, 2023").toISOString()).toBe("2023-05-08T13:56:00.000Z");
    expect(parseSessionDate("12:09 am on 13 September, 2023").toISOString()).toBe("2023-09-13T00:09:00.000Z");
    expect(() => parseSessionDate("yesterday")).toThrow(DatasetError);
  });

  it("reads the dia_ids the irregular references plainly mean", () => {
    expect(diaIds("D1:3")).toEqual(["D1:3"]);
    expect(diaIds(["D8:6; D9:17"])).toEqual(["D8:6", "D9:17"]);
    expect(diaIds("D4:17, D4:19")).toEqual(["D4:17", "D4:19"]);
    expect(diaIds("D:11:26")).toEqual(["D11:26"]);
    expect(diaIds("D")).toEqual([]);
  });
});

describe("parseCli", () => {
  const root = "/repo";
  it("defaults to the three datasets, every strategy and embedder, and LoCoMo beside the repository", () => {
    const options = parseCli([], {}, root, NOW);
    expect(options).toMatchObject({
      datasets: ["locomo", "project", "paraphrase", "dated"],
      strategies: undefined,
      embedders: undefined,
      locomoPath: "/shared/eval/locomo/locomo10.json",
      out: "/repo/eval/results/eval-2025-06-15T12-00-00-000Z.json",
      calibration: true,
    });
  });

  it("takes lists, a limit and overrides", () => {
    const options = parseCli(
      [
        "--dataset",
        "locomo,my.json",
        "--strategies",
        "nearest",
        "--strategies",
        "hybrid",
        "--limit",
        "5",
        "--samples",
        "conv-26",
        "--out",
        "x.json",
        "--skip-calibration",
        "--embedders",
        "offline/hash-ngram-v1,offline/wordvec-glove-v1",
      ],
      { LOCOMO_PATH: "/data/locomo.json" },
      root,
      NOW,
    );
    expect(options).toMatchObject({
      datasets: ["locomo", "my.json"],
      strategies: ["nearest", "hybrid"],
      limit: 5,
      samples: ["conv-26"],
      locomoPath: "/data/locomo.json",
      out: "/repo/x.json",
      calibration: false,
      embedders: ["offline/hash-ngram-v1", "offline/wordvec-glove-v1"],
    });
    expect(() => parseCli(["--limit", "0"], {}, root)).toThrow(/--limit/);
    expect(() => parseCli(["--nope"], {}, root)).toThrow();
  });
});

describe("embeddersFor", () => {
  it("compares every offline embedder, the older first, when no key is configured", () => {
    const embedders = embeddersFor(undefined, createAiRegistry({}), {});
    expect(embedders.map((e) => e.id)).toEqual([
      "offline/hash-ngram-v1",
      "offline/wordvec-glove-v1",
      "offline/wordvec-glove-v2",
      "offline/wordvec-glove-v3",
    ]);
  });

  it("with a key, evaluates the configured embedder only, unless offline ones are asked for", () => {
    const registry = createAiRegistry({ OPENAI_API_KEY: "sk-test" });
    expect(embeddersFor(undefined, registry, {}).map((e) => e.id)).toEqual(["openai/text-embedding-3-small"]);
    expect(embeddersFor(["offline/hash-ngram-v1"], registry, {}).map((e) => e.id)).toEqual(["offline/hash-ngram-v1"]);
  });

  it("embeds with the embedder it names", async () => {
    const [oldest, older, previous, newest] = embeddersFor(undefined, createAiRegistry({}), {});
    const text = "I am allergic to peanuts";
    expect(await oldest?.embed([text])).toEqual([embedOffline(text)]);
    expect(await older?.embed([text])).toEqual([embedWordVec(text, WORDVEC_V1_SETTINGS)]);
    expect(await previous?.embed([text])).toEqual([embedWordVec(text, WORDVEC_V2_SETTINGS)]);
    expect(await newest?.embed([text])).toEqual([embedWordVec(text)]);
  });

  it("rejects an embedder that is neither offline nor configured", () => {
    expect(() => embeddersFor(["openai/text-embedding-3-large"], createAiRegistry({}), {})).toThrow(
      /"openai\/text-embedding-3-large" is neither an offline embedder/,
    );
  });
});
