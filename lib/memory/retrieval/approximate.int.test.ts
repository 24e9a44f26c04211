/**
 * The approximate path of the semantic branch (retrieve.ts `retrieveApproximate`): above the
 * crossover, on a database with the HNSW index (Postgres), the candidates come from the index and
 * the text index, and the formula scores those. Correctness only, nothing timed (npm run bench
 * measures): where the index is complete its top 5 is the exact statement's, the trace says which
 * path answered, below the crossover the exact statement answers, another user's memories never
 * appear, and an index scan that returns too few candidates gives way to the exact statement.
 */
import { describe, expect, it } from "vitest";
import { type ApproximateRetrievalConfig, EMBEDDING_DIMENSIONS, retrievalStrategies } from "@/core/config";
import type { Db } from "@/db/client";
import { DB_KINDS } from "@/tests/db";
import { createUser, DAY_MS, insertMemories, seededRandom, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { assembleContext } from "./assemble";
import { hasVectorIndex, retrieveSemantic, type SemanticConfig, type SemanticResult } from "./retrieve";

const NOW = new Date("2025-06-15T12:00:00.000Z");

/** `db`, counting the statements it executes itself (not those of its transactions). */
function countingExecutes(db: Db): { db: Db; calls: () => number } {
  let calls = 0;
  const proxy = new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property !== "execute") return value.bind(target);
      return (...args: unknown[]) => {
        calls++;
        return value.apply(target, args);
      };
    },
  });
  return { db: proxy, calls: () => calls };
}
const MEMORIES = 400;
const WORDS = ["coffee", "garden", "piano", "train", "sister", "lisbon", "marathon", "allergy", "novel", "budget"];

/** A dense unit vector (every component non-zero), as real embedding models give. */
function denseVector(random: () => number): number[] {
  const v = Array.from({ length: EMBEDDING_DIMENSIONS }, () => random() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** `base` moved towards a random direction: cosine ≈ 1 / sqrt(1 + noise²). */
function near(random: () => number, base: readonly number[], noise: number): number[] {
  const other = denseVector(random);
  return base.map((x, i) => x + noise * (other[i] as number));
}

const APPROXIMATE: ApproximateRetrievalConfig = {
  minMemories: 100,
  indexCandidates: 200,
  efSearch: 200,
  iterativeScan: "relaxed_order",
  maxScanTuples: 20_000,
};

const strategies = {
  hybrid: { ...retrievalStrategies.hybrid, similarityThreshold: 0.1 } as SemanticConfig,
  weighted: { ...retrievalStrategies.weighted, similarityThreshold: 0.1 } as SemanticConfig,
};

describe.each(DB_KINDS)("the approximate path on %s", (kind) => {
  const database = useTestDatabase(kind);
  const random = seededRandom(28);
  // Questions, each with memories around it; the other user holds the nearest copies of all.
  const questions = Array.from({ length: 6 }, (_, i) => ({
    text: `what about the ${WORDS[i]} and the ${WORDS[(i + 3) % WORDS.length]}?`,
    embedding: denseVector(random),
  }));
  let ada = "";
  let bob = "";
  let bobIds = new Set<string>();

  const run = (
    question: (typeof questions)[number],
    config: SemanticConfig,
    approximate: ApproximateRetrievalConfig | null = APPROXIMATE,
    userId = ada,
  ) =>
    retrieveSemantic(database.db, {
      userId,
      embedding: question.embedding,
      embeddingModel: TEST_EMBEDDER,
      text: question.text,
      now: NOW,
      config,
      approximate,
    });
  const top = (result: SemanticResult) => result.candidates.filter((c) => c.selected);

  it("seeds two users", async () => {
    ada = await createUser(database.db, "Ada");
    bob = await createUser(database.db, "Bob");
    const rows = Array.from({ length: MEMORIES }, (_, i) => {
      const question = questions[i % questions.length] as (typeof questions)[number];
      // A third close to a question, the rest scattered; words shared with some of the questions.
      const embedding =
        Math.floor(i / questions.length) % 3 === 0
          ? near(random, question.embedding, 0.6 + random() * 1.5)
          : denseVector(random);
      return {
        content: `note ${i} about the ${WORDS[i % WORDS.length]} ${i % 7 === 0 ? WORDS[(i + 5) % WORDS.length] : ""}`,
        importance: Math.round(random() * 100) / 100,
        embedding,
        updatedAt: new Date(NOW.getTime() - Math.floor(random() * 60) * DAY_MS),
      };
    });
    await insertMemories(
      database.db,
      rows.map((row) => ({ ...row, userId: ada })),
    );
    // Bob's memories are nearer to every question than any of Ada's, with the same words.
    const bobs = await insertMemories(
      database.db,
      questions.flatMap((question) =>
        Array.from({ length: 30 }, (_, i) => ({
          userId: bob,
          content: `${question.text} ${i}`,
          importance: 1,
          embedding: near(random, question.embedding, 0.05),
          updatedAt: NOW,
        })),
      ),
    );
    bobIds = new Set(bobs);
    await database.query("ANALYZE memories");
  });

  if (kind === "pglite") {
    it("has no HNSW index, so the exact statement answers above the crossover too", async () => {
      expect(await hasVectorIndex(database.db)).toBe(false);
      const result = await run(questions[0] as (typeof questions)[number], strategies.hybrid, {
        ...APPROXIMATE,
        minMemories: 0,
      });
      expect(result.path).toBe("exact");
      expect(result.index).toBeUndefined();
    });
    return;
  }

  it("has the HNSW index and the counting index", async () => {
    expect(await hasVectorIndex(database.db)).toBe(true);
    const indexes = await database.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'memories' ORDER BY indexname",
    );
    const def = (name: string) => indexes.find((index) => index.indexname === name)?.indexdef;
    expect(def("memories_embedding_hnsw_idx")).toMatch(
      /USING hnsw \(embedding halfvec_cosine_ops\) WITH \(m='?16'?, ef_construction='?64'?\)/,
    );
    expect(def("memories_user_model_idx")).toMatch(
      /\(user_id, embedding_model\) INCLUDE \(search_length\) WHERE \(status = 'active'::memory_status\)/,
    );
  });

  it.each(["hybrid", "weighted"] as const)(
    "%s: above the crossover the approximate path answers, and its top 5 is the exact one's",
    async (name) => {
      for (const question of questions) {
        const exact = await run(question, strategies[name], null);
        const approximate = await run(question, strategies[name]);
        expect(exact.path).toBe("exact");
        expect(approximate.path).toBe("approximate");
        expect(approximate.index).toMatchObject({
          memories: MEMORIES,
          minMemories: 100,
          asked: 200,
          returned: 200,
          efSearch: 200,
          iterativeScan: "relaxed_order",
          maxScanTuples: 20_000,
          fellBack: false,
        });
        expect(approximate.index?.scored).toBeGreaterThanOrEqual(200);
        const [a, e] = [top(approximate), top(exact)];
        expect(a.map((c) => c.id)).toEqual(e.map((c) => c.id));
        expect(a).toHaveLength(5);
        // The same formula on the same inputs: the same scores, vector and text ranks.
        a.forEach((candidate, i) => {
          const want = e[i];
          expect(Math.abs(candidate.score - (want?.score ?? Number.NaN))).toBeLessThanOrEqual(1e-9);
          expect([candidate.vectorRank, candidate.textRank]).toEqual([want?.vectorRank, want?.textRank]);
        });
        expect(approximate.waitingForReembedding).toBe(0);
      }
    },
  );

  it("never returns another user's memories, though the index's nearest are all theirs", async () => {
    for (const question of questions) {
      const result = await run(question, strategies.hybrid);
      expect(result.path).toBe("approximate");
      const ids = [...result.candidates, ...result.nearMisses].map((c) => c.id);
      expect(ids.length).toBeGreaterThan(5);
      expect(ids.filter((id) => bobIds.has(id))).toEqual([]);
    }
    // And Bob (180 memories, above a crossover of 100) sees only his own.
    const forBob = await run(questions[0] as (typeof questions)[number], strategies.hybrid, APPROXIMATE, bob);
    expect(forBob.path).toBe("approximate");
    expect(forBob.index?.memories).toBe(180);
    expect(forBob.candidates.every((c) => bobIds.has(c.id))).toBe(true);
  });

  it("below the crossover the exact statement answers, and the result is the exact one", async () => {
    const question = questions[1] as (typeof questions)[number];
    const below = await run(question, strategies.hybrid, { ...APPROXIMATE, minMemories: MEMORIES });
    const exact = await run(question, strategies.hybrid, null);
    expect(below.path).toBe("exact");
    expect(below.index).toBeUndefined();
    expect(below).toEqual(exact);
  });

  it("asks for no per-user count while the table's row estimate is below the crossover", async () => {
    const [estimate] = await database.query<{ rows: number }>(
      "SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'memories'::regclass",
    );
    const rows = estimate?.rows ?? -1;
    expect(rows).toBeGreaterThan(MEMORIES); // ANALYZE ran at seeding: both users' memories
    const question = questions[1] as (typeof questions)[number];
    const statements = async (minMemories: number) => {
      const counted = countingExecutes(database.db);
      const query = {
        userId: ada,
        embedding: question.embedding,
        embeddingModel: TEST_EMBEDDER,
        text: question.text,
        now: NOW,
        config: strategies.hybrid,
        approximate: { ...APPROXIMATE, minMemories },
      };
      await retrieveSemantic(counted.db, query); // the first call also asks for the index and the estimate
      const before = counted.calls();
      const result = await retrieveSemantic(counted.db, query);
      expect(result.path).toBe("exact");
      return counted.calls() - before;
    };
    expect(await statements(rows + 1)).toBe(1); // the exact statement alone
    expect(await statements(MEMORIES)).toBe(2); // the table may hold more: Ada's count, then the statement
  });

  it("an index scan that returns fewer candidates than asked gives way to the exact statement", async () => {
    // pgvector's defaults: no iterative scan, ef_search 40 — one pass of 40 tuples of every user,
    // then the filter keeps Ada's: fewer than 200. This is how a top 5 could differ from the exact
    // one (a memory lifted by importance or recency beyond the few candidates); the path now
    // notices the shortfall and the exact statement answers.
    for (const question of questions) {
      const result = await run(question, strategies.hybrid, { ...APPROXIMATE, efSearch: 40, iterativeScan: "off" });
      const exact = await run(question, strategies.hybrid, null);
      expect(result.path).toBe("exact");
      expect(result.index?.fellBack).toBe(true);
      expect(result.index?.returned).toBeLessThan(200);
      expect(result.candidates.map((c) => c.id)).toEqual(exact.candidates.map((c) => c.id));
    }
  });

  it("the chat turn's trace records the path, the candidates and the index settings", async () => {
    const question = questions[2] as (typeof questions)[number];
    const input = {
      userId: ada,
      message: question.text,
      history: [],
      mode: "productivity" as const,
      memoryEnabled: true,
      embed: async () => question.embedding,
      embeddingModel: TEST_EMBEDDER,
      now: NOW,
      countAccess: false,
    };
    const { trace } = await assembleContext(database.db, { ...input, approximate: APPROXIMATE });
    expect(trace.semantic?.path).toBe("approximate");
    expect(trace.semantic?.index).toMatchObject({ asked: 200, returned: 200, efSearch: 200, fellBack: false });
    const exact = await assembleContext(database.db, { ...input, approximate: null });
    expect(exact.trace.semantic?.path).toBe("exact");
    expect(exact.trace.semantic?.index).toBeUndefined();
  });
});
