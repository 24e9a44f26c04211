/**
 * The two-stage pass of the semantic branch (retrieve.ts `scoreCandidates` over `hammingNearest`): above
 * the crossover, K candidates by Hamming distance between sign codes, read from the covering index, then
 * the exact statement's formula over them and every text match. Correctness only, nothing timed (npm run
 * bench measures): where K covers the user's memories the result is the exact one; with K below that its
 * top 5 is the exact one's here; the pass returns K whenever the user has K; another user's memories never
 * appear; below the crossover the exact statement answers; the trace says which path answered and how.
 */
import { eq, inArray, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { type ApproximateRetrievalConfig, EMBEDDING_DIMENSIONS, retrievalStrategies } from "@/core/config";
import { type Db, selectRows } from "@/db/client";
import { halfvecValue } from "@/db/queries/vectors";
import { memories } from "@/db/schema";
import { embedWordVec, WORDVEC_V2_SETTINGS } from "@/lib/offline/wordvec-embedder";
import { DB_KINDS } from "@/tests/db";
import {
  createUser,
  DAY_MS,
  insertMemories,
  insertWordVecMemories,
  seededRandom,
  TEST_EMBEDDER,
} from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { assembleContext } from "./assemble";
import { CODE_INDEX, hammingNearest, retrieveSemantic, type SemanticConfig, type SemanticResult } from "./retrieve";

const NOW = new Date("2025-06-15T12:00:00.000Z");

/** `db`, recording the statements it executes itself (not those of its transactions), as SQL text. */
function countingExecutes(db: Db): { db: Db; calls: () => number; sent: string[] } {
  const dialect = new PgDialect();
  const sent: string[] = [];
  const proxy = new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property !== "execute") return value.bind(target);
      return (statement: SQL) => {
        sent.push(dialect.sqlToQuery(statement).sql);
        return value.call(target, statement);
      };
    },
  });
  return { db: proxy, calls: () => sent.length, sent };
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

const TWO_STAGE: ApproximateRetrievalConfig = { minMemories: 100, candidates: 200 };

const strategies = {
  hybrid: { ...retrievalStrategies.hybrid, similarityThreshold: 0.1 } as SemanticConfig,
  weighted: { ...retrievalStrategies.weighted, similarityThreshold: 0.1 } as SemanticConfig,
};

describe.each(DB_KINDS)("the two-stage pass on %s", (kind) => {
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
    approximate: ApproximateRetrievalConfig | null = TWO_STAGE,
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
    await database.query("VACUUM ANALYZE memories");
  });

  it("keeps each memory's sign code, and reads the candidates from the covering index alone", async () => {
    const [index] = await database.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE indexname = '${CODE_INDEX}'`,
    );
    expect(index?.indexdef).toMatch(
      /\(user_id, embedding_model\) INCLUDE \(search_length, embedding_code, id\) WHERE \(status = 'active'::memory_status\)/,
    );
    const others = await database.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE indexname IN ('memories_embedding_hnsw_idx', 'memories_user_model_idx')",
    );
    expect(others).toEqual([]);
    const question = questions[0] as (typeof questions)[number];
    const vector = halfvecValue(question.embedding);
    // Which plan wins on this small table depends on its visibility map. With the other index on the user's
    // rows dropped (rolled back) and no seq or bitmap scan, an index-only scan of CODE_INDEX is the plan left
    // only if it covers the pass.
    let plan: { "QUERY PLAN": string }[] = [];
    const rolledBack = new Error("roll back");
    await database.db
      .transaction(async (tx) => {
        for (const statement of [
          "DROP INDEX memories_user_status_idx",
          "SET LOCAL enable_seqscan = off",
          "SET LOCAL enable_bitmapscan = off",
        ])
          await tx.execute(sql.raw(statement));
        plan = await selectRows(tx as unknown as Db, sql`EXPLAIN ${hammingNearest(ada, TEST_EMBEDDER, vector, 200)}`);
        throw rolledBack;
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
      });
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toMatch(new RegExp(`Index Only Scan using ${CODE_INDEX}`));
    // The code follows the vector: a re-embedded memory is re-coded in the same write.
    const [first] = await database.query<{ id: string }>(
      "SELECT id FROM memories WHERE user_id = $1 ORDER BY id LIMIT 1",
      [ada],
    );
    const flipped = question.embedding.map((x) => -x);
    await database.query("UPDATE memories SET embedding = $1::halfvec WHERE id = $2", [
      JSON.stringify(question.embedding),
      first?.id,
    ]);
    const codes = async () =>
      (
        await database.query<{ code: string }>("SELECT embedding_code::text AS code FROM memories WHERE id = $1", [
          first?.id,
        ])
      )[0]?.code ?? "";
    const before = await codes();
    expect(before).toBe(question.embedding.map((x) => (x > 0 ? "1" : "0")).join(""));
    await database.query("UPDATE memories SET embedding = $1::halfvec WHERE id = $2", [
      JSON.stringify(flipped),
      first?.id,
    ]);
    expect(await codes()).toBe(flipped.map((x) => (x > 0 ? "1" : "0")).join(""));
    expect((await codes()).length).toBe(EMBEDDING_DIMENSIONS);
    // Restore the vector the other tests were seeded with: re-seeding would change them all.
    await database.query("UPDATE memories SET embedding = $1::halfvec WHERE id = $2", [
      JSON.stringify(question.embedding),
      first?.id,
    ]);
  });

  it.each(["hybrid", "weighted"] as const)(
    "%s: with K covering the user's memories, the two-stage result is the exact one",
    async (name) => {
      for (const question of questions) {
        const exact = await run(question, strategies[name], null);
        const covering = await run(question, strategies[name], { minMemories: 100, candidates: MEMORIES });
        expect(covering.path).toBe("two-stage");
        expect(covering.index).toMatchObject({ memories: MEMORIES, asked: MEMORIES, returned: MEMORIES });
        const same = (result: SemanticResult) =>
          [...result.candidates, ...result.nearMisses].map((c) => [c.id, c.rank, c.vectorRank, c.textRank]);
        expect(same(covering)).toEqual(same(exact));
        expect(covering.aboveThreshold).toBe(exact.aboveThreshold);
        covering.candidates.forEach((candidate, i) => {
          expect(Math.abs(candidate.score - (exact.candidates[i]?.score ?? Number.NaN))).toBeLessThanOrEqual(1e-9);
        });
      }
    },
  );

  it.each(["hybrid", "weighted"] as const)(
    "%s: with K = 200 of 400 the pass returns K, and its top 5 is the exact one's",
    async (name) => {
      for (const question of questions) {
        const exact = await run(question, strategies[name], null);
        const twoStage = await run(question, strategies[name]);
        expect(exact.path).toBe("exact");
        expect(twoStage.path).toBe("two-stage");
        expect(twoStage.index).toMatchObject({
          memories: MEMORIES,
          minMemories: 100,
          asked: 200,
          returned: 200,
          index: CODE_INDEX,
        });
        expect(twoStage.index?.scored).toBeGreaterThanOrEqual(200);
        const [a, e] = [top(twoStage), top(exact)];
        expect(a.map((c) => c.id)).toEqual(e.map((c) => c.id));
        expect(a).toHaveLength(5);
        a.forEach((candidate, i) => {
          const want = e[i];
          expect(Math.abs(candidate.score - (want?.score ?? Number.NaN))).toBeLessThanOrEqual(1e-9);
          expect([candidate.vectorRank, candidate.textRank]).toEqual([want?.vectorRank, want?.textRank]);
        });
        expect(twoStage.waitingForReembedding).toBe(0);
      }
    },
  );

  it("never returns another user's memories, though every question's nearest are theirs", async () => {
    for (const question of questions) {
      const result = await run(question, strategies.hybrid);
      expect(result.path).toBe("two-stage");
      const ids = [...result.candidates, ...result.nearMisses].map((c) => c.id);
      expect(ids.length).toBeGreaterThan(5);
      expect(ids.filter((id) => bobIds.has(id))).toEqual([]);
    }
    // And Bob (180 memories, above a crossover of 100, below K) gets all of his own and only those.
    const forBob = await run(questions[0] as (typeof questions)[number], strategies.hybrid, TWO_STAGE, bob);
    expect(forBob.path).toBe("two-stage");
    expect(forBob.index).toMatchObject({ memories: 180, asked: 200, returned: 180 });
    expect(forBob.candidates.every((c) => bobIds.has(c.id))).toBe(true);
  });

  it("below the crossover the exact statement answers, and the result is the exact one", async () => {
    const question = questions[1] as (typeof questions)[number];
    const below = await run(question, strategies.hybrid, { ...TWO_STAGE, minMemories: MEMORIES });
    const exact = await run(question, strategies.hybrid, null);
    expect(below.path).toBe("exact");
    expect(below.index).toBeUndefined();
    expect(below).toEqual(exact);
  });

  it("an embedder whose codes were not found to rank well gets the exact statement at any size", async () => {
    const question = questions[1] as (typeof questions)[number];
    const listed = await run(question, strategies.hybrid, { ...TWO_STAGE, exactFor: [TEST_EMBEDDER] });
    expect(listed.path).toBe("exact");
    expect(listed).toEqual(await run(question, strategies.hybrid, null));
    expect((await run(question, strategies.hybrid, { ...TWO_STAGE, exactFor: ["another/embedder"] })).path).toBe(
      "two-stage",
    );
  });

  it("an embedder with its own K gets that K; another embedder's K does not apply", async () => {
    const question = questions[1] as (typeof questions)[number];
    const own = await run(question, strategies.hybrid, { ...TWO_STAGE, candidatesFor: { [TEST_EMBEDDER]: 300 } });
    expect(own.index).toMatchObject({ asked: 300, returned: 300 });
    const other = await run(question, strategies.hybrid, { ...TWO_STAGE, candidatesFor: { "another/embedder": 300 } });
    expect(other.index).toMatchObject({ asked: 200, returned: 200 });
  });

  /** Ada's hybrid retrieval of `question` with the two-stage pass above `minMemories`. */
  const adaAsks = (question: (typeof questions)[number], minMemories: number) => ({
    userId: ada,
    embedding: question.embedding,
    embeddingModel: TEST_EMBEDDER,
    text: question.text,
    now: NOW,
    config: strategies.hybrid,
    approximate: { ...TWO_STAGE, minMemories },
  });

  it("reads the user's count from memory_stats before either path, and follows a write at once", async () => {
    const question = questions[1] as (typeof questions)[number];
    const counted = countingExecutes(database.db);
    const statements = async (minMemories: number) => {
      const before = counted.calls();
      const result = await retrieveSemantic(counted.db, adaAsks(question, minMemories));
      return { path: result.path, memories: result.index?.memories, statements: counted.calls() - before };
    };
    // One primary-key read, then the path's one statement.
    expect(await statements(MEMORIES)).toEqual({ path: "exact", memories: undefined, statements: 2 });
    expect(await statements(MEMORIES - 1)).toEqual({ path: "two-stage", memories: MEMORIES, statements: 2 });
    // A memory written now moves Ada past the crossover on her next turn, and its deletion back below it.
    const [added] = await insertMemories(database.db, [
      { userId: ada, content: "one more note about the garden", embedding: denseVector(random) },
    ]);
    expect(await statements(MEMORIES)).toEqual({ path: "two-stage", memories: MEMORIES + 1, statements: 2 });
    await database.db.delete(memories).where(eq(memories.id, added as string));
    expect(await statements(MEMORIES)).toEqual({ path: "exact", memories: undefined, statements: 2 });
  });

  it("counts the memories waiting for re-embedding as the exact statement does: those with text", async () => {
    const question = questions[1] as (typeof questions)[number];
    const waiting = await insertMemories(database.db, [
      { userId: ada, content: "from another embedder", embedding: denseVector(random), embeddingModel: "other/model" },
      { userId: ada, content: "not embedded yet", embedding: null, embeddingModel: null },
      { userId: ada, content: " ", embedding: null, embeddingModel: null },
    ]);
    try {
      const exact = await retrieveSemantic(database.db, { ...adaAsks(question, MEMORIES), approximate: null });
      const twoStage = await retrieveSemantic(database.db, adaAsks(question, MEMORIES - 1));
      expect([exact.path, twoStage.path]).toEqual(["exact", "two-stage"]);
      expect(exact.waitingForReembedding).toBe(2);
      expect(twoStage.waitingForReembedding).toBe(2);
    } finally {
      await database.db.delete(memories).where(inArray(memories.id, waiting));
    }
  });

  it("the chat turn's trace records the path, K, the candidates returned and the index", async () => {
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
    const { trace } = await assembleContext(database.db, { ...input, approximate: TWO_STAGE });
    expect(trace.semantic?.path).toBe("two-stage");
    expect(trace.semantic?.index).toMatchObject({ asked: 200, returned: 200, index: CODE_INDEX, memories: MEMORIES });
    const exact = await assembleContext(database.db, { ...input, approximate: null });
    expect(exact.trace.semantic?.path).toBe("exact");
    expect(exact.trace.semantic?.index).toBeUndefined();
  });

  it("the chat turn reads the user's count while the message is embedded, not after", async () => {
    const question = questions[2] as (typeof questions)[number];
    const { db: recording, sent } = countingExecutes(database.db);
    let sentWhileEmbedding: string[] = [];
    const { trace } = await assembleContext(recording, {
      userId: ada,
      message: question.text,
      history: [],
      mode: "productivity",
      memoryEnabled: true,
      embed: async () => {
        await new Promise((resolve) => setTimeout(resolve, 50)); // an embedder's round trip
        sentWhileEmbedding = [...sent];
        return question.embedding;
      },
      embeddingModel: TEST_EMBEDDER,
      now: NOW,
      countAccess: false,
      approximate: TWO_STAGE,
    });
    expect(trace.semantic?.path).toBe("two-stage");
    expect(sentWhileEmbedding.filter((text) => text.includes("FROM memory_stats WHERE"))).toHaveLength(1);
    // And retrieval read it once: the two-stage statement reads its own N in its snapshot.
    expect(sent.filter((text) => /^SELECT comparable FROM memory_stats/.test(text.trim()))).toHaveLength(1);
  });

  it("the offline embedder's codes carry about half their bits set, where the unrotated v2's held ~100", async () => {
    const cy = await createUser(database.db, "Cy");
    const contents = [
      "Food allergy: Is allergic to peanuts",
      "Pet: Has a cat called Kwyjibo",
      "Lives in Lisbon with her sister Maya",
      "Plays the cello in an amateur orchestra",
      "Zxqvbn",
    ];
    await insertWordVecMemories(database.db, cy, contents, { importance: 0.5 });
    await insertMemories(
      database.db,
      contents.map((content) => ({
        userId: cy,
        content,
        embedding: embedWordVec(content, WORDVEC_V2_SETTINGS),
        embeddingModel: "offline/wordvec-glove-v2",
      })),
    );
    const rows = await database.query<{ model: string; bits: number }>(
      "SELECT embedding_model AS model, bit_count(embedding_code)::int AS bits FROM memories WHERE user_id = $1",
      [cy],
    );
    const bits = (model: string) => rows.filter((row) => row.model === model).map((row) => row.bits);
    expect(bits("offline/wordvec-glove-v3")).toHaveLength(contents.length);
    for (const set of bits("offline/wordvec-glove-v3")) {
      expect(set).toBeGreaterThan(EMBEDDING_DIMENSIONS * 0.4);
      expect(set).toBeLessThan(EMBEDDING_DIMENSIONS * 0.6);
    }
    expect(Math.max(...bits("offline/wordvec-glove-v2"))).toBeLessThan(200);
  });
});
