import { describe, expect, it, vi } from "vitest";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { main, parseArgs, USAGE } from "./cli";
import { generateMemories, generateQuestions } from "./corpus";
import { DENSE_EMBEDDER_MODEL, denseEmbedder } from "./dense-embedder";
import { formatTable, ratioOf } from "./report";
import { agreement } from "./retrieval";
import { percentile, summarise } from "./stats";
import { modelCalledAt, preModelWriteMs } from "./turn-spans";

describe("bench statistics", () => {
  it("percentiles by nearest rank", () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
    expect(summarise([3, 1, 2])).toEqual({ samples: 3, p50: 2, p95: 3, p99: 3, mean: 2 });
  });

  it("agreement: recall of the expected ids and whether the lists are identical", () => {
    expect(agreement(["a", "b", "c", "d", "e"], ["a", "b", "c", "d", "e"])).toEqual({ recall: 1, same: true });
    expect(agreement(["a", "b", "c", "d", "e"], ["b", "a", "c", "d", "e"])).toEqual({ recall: 1, same: false });
    expect(agreement(["a", "b", "c", "d", "e"], ["a", "b", "x"])).toEqual({ recall: 0.4, same: false });
    expect(agreement([], [])).toEqual({ recall: 1, same: true });
  });
});

describe("bench corpus", () => {
  it("is deterministic in its seed, and mostly distinct at scale", () => {
    expect(generateMemories(3, 50)).toEqual(generateMemories(3, 50));
    expect(generateMemories(3, 50)).not.toEqual(generateMemories(4, 50));
    const many = generateMemories(1, 5_000);
    expect(new Set(many.map((memory) => memory.content)).size).toBeGreaterThan(3_000);
    for (const memory of many) {
      expect(memory.importance).toBeGreaterThanOrEqual(0);
      expect(memory.importance).toBeLessThanOrEqual(1);
      expect(memory.content).not.toMatch(/[{}]/);
    }
    expect(generateQuestions(7, 10)).toEqual(generateQuestions(7, 10));
  });
});

describe("bench options", () => {
  it("--quick measures less; sizes accept 10k; an unknown database is refused; --skip leaves contenders out", () => {
    const quick = parseArgs(["--quick"], new Date("2026-01-01T00:00:00Z"));
    expect(quick.sizes).toEqual({ postgres: [1_000, 10_000], pglite: [1_000] });
    expect([quick.questions, quick.rounds]).toEqual([50, 1]);
    expect(quick.out).toBe("bench/results/2026-01-01T00-00-00-000Z");
    const full = parseArgs(["--sizes", "1k,100k", "--db", "postgres"]);
    expect(full.sizes.postgres).toEqual([1_000, 100_000]);
    expect(full.sizes.pglite).toEqual([1_000]);
    expect(full.dbs).toEqual(["postgres"]);
    expect(() => parseArgs(["--db", "mysql"])).toThrow(/unknown database/);
    expect(quick.skip).toEqual([]);
    expect(parseArgs(["--skip", "in-app,floor"]).skip).toEqual(["in-app", "floor"]);
  });
});

describe("bench dense corpus", () => {
  it("gives dense unit vectors, the same for the same text, nearer for texts that share meaning", async () => {
    const embedder = denseEmbedder();
    expect(embedder.model).toBe(DENSE_EMBEDDER_MODEL);
    const [coffee, again, tea, train, unknown] = await embedder.embed([
      "I drink coffee every morning",
      "I drink coffee every morning",
      "She likes tea in the afternoon",
      "The train to Lisbon leaves at nine",
      "zxqv wplk",
    ]);
    for (const vector of [coffee, tea, train, unknown]) {
      expect(vector).toHaveLength(EMBEDDING_DIMENSIONS);
      expect(vector?.filter((x) => x === 0).length).toBeLessThan(5);
      expect(Math.hypot(...(vector ?? []))).toBeCloseTo(1, 9);
    }
    expect(again).toEqual(coffee);
    const cos = (a: number[] | undefined, b: number[] | undefined) =>
      (a ?? []).reduce((sum, x, i) => sum + x * ((b ?? [])[i] as number), 0);
    expect(cos(coffee, tea)).toBeGreaterThan(cos(coffee, train));
  });

  it("--help prints the options and runs nothing", async () => {
    const printed = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await main(["--help", "--sizes", "100k"])).toBe(0);
      expect(printed).toHaveBeenCalledWith(USAGE);
    } finally {
      printed.mockRestore();
    }
  });

  it("refuses an option it does not know, instead of running the default bench", () => {
    expect(() => parseArgs(["--size", "10k"])).toThrow(/^unknown option "--size"\nusage: npm run bench -- /);
    expect(() => parseArgs(["--help"])).toThrow(/unknown option "--help"/); // main prints USAGE before parsing
    expect(parseArgs(["--sizes", "10k", "--no-chat"]).sizes.postgres).toEqual([10_000]);
    // The import bench's options are its own (bench/import.ts).
    expect(() => parseArgs(["--import", "--conversations", "20"])).not.toThrow();
  });

  it("--embedder dense and --others are options", () => {
    expect(parseArgs(["--embedder", "dense", "--others", "2"])).toMatchObject({ embedder: "dense", others: 2 });
    expect(parseArgs([])).toMatchObject({ embedder: "configured", others: 20 });
  });
});

describe("the chat turn against its statement and writes", () => {
  const span = (name: string, ms: number, phase?: string, startTime: [number, number] = [0, 0]) => ({
    name,
    attributes: phase ? { "lifeline.debug.phase": phase } : {},
    duration: [Math.floor(ms / 1000), (ms % 1000) * 1e6] as [number, number],
    startTime,
  });

  it("counts the turn's writes and the access count, not the debug record's writes (at and after the model call) or retrieval", () => {
    const spans = [
      span("chat.write", 2.5),
      span("chat.retrieval", 40),
      span("chat.debug_write", 1.5, "model-call"),
      span("chat.debug_write", 9, "settled"),
      span("extraction.store", 7),
      span("chat.write", 1001),
      span("retrieval.access_write", 0.5),
    ];
    expect(preModelWriteMs(spans)).toBeCloseTo(1004, 6);
  });

  it("reads when the turn's model call began from its chat.model span, on the clock the client's send time uses", () => {
    expect(modelCalledAt([span("chat.write", 2)])).toBeNull();
    expect(modelCalledAt([span("chat.model", 30, undefined, [1_700_000_000, 250_000_000])])).toBe(1_700_000_000_250);
  });

  it("sets the turn's p95 against the statement's p95 plus the writes' p95", () => {
    const latency = (p95: number) => ({ samples: 10, p50: p95 / 2, p95, p99: p95, mean: p95 / 2 });
    const result = {
      db: "postgres" as const,
      size: 1_000,
      otherRows: 0,
      latency: { hybrid: latency(20) },
      chatTurn: {
        toModel: latency(45),
        alone: latency(60),
        writes: latency(10),
        concurrent: latency(90),
        concurrentUsers: 5,
      },
    };
    expect(ratioOf(result)?.["pre-model turn / (hybrid + writes)"]).toBe("1.50×");
    expect(ratioOf({ ...result, chatTurn: undefined })?.["pre-model turn / (hybrid + writes)"]).toBe("—");
  });

  it("prints what memory_stats's triggers add to each way of writing memories", () => {
    const table = formatTable({
      at: "2026-12-08T00:00:00.000Z",
      embedder: "test/fixture",
      questions: 1,
      rounds: 1,
      results: [
        {
          db: "pglite",
          size: 1_000,
          otherRows: 0,
          latency: {},
          statsWrites: {
            perRow: {
              "one row per statement": { with: 0.5, without: 0.25 },
              "rows in one statement": { with: 0.125, without: 0.1 },
            },
            rows: 100,
            repeats: 5,
          },
        },
      ],
    });
    expect(table).toContain("memory_stats triggers, pglite 1,000: ms per row (p50 of 5 × 100 rows)");
    expect(table).toMatch(/one row per statement\s+0\.500\s+0\.250\s+0\.250/);
    expect(table).toMatch(/rows in one statement\s+0\.125\s+0\.100\s+0\.025/);
  });
});
