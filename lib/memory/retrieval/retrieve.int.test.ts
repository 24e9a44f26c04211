import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS, retrievalConfig, retrievalStrategies } from "@/core/config";
import { selectRows } from "@/db/client";
import { usageColumns, withUsage } from "@/db/queries/memory-usage";
import { MEMORY_STATUSES, memories } from "@/db/schema";
import { DB_KINDS } from "@/tests/db";
import {
  createUser,
  DAY_MS,
  insertMemories,
  type MemoryFixture,
  randomInt,
  randomUuid,
  seededRandom,
  sparseVector,
  TEST_EMBEDDER,
} from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { recordAccess } from "./access";
import { dateWindowOf } from "./date-window";
import { retrieveSemantic, type SemanticConfig, type SemanticResult } from "./retrieve";
import { bm25Scores, cosineSimilarity, type FusionConfig, rankCandidates, type ScoreInput } from "./score";

const NOW = new Date("2025-06-15T12:00:00.000Z");
/** The original formula (similarity, importance, recency; threshold 0.3): its ties and components. */
const weighted = retrievalStrategies.weighted;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

/** Ages that sit on the recency formula's edges (whole days, the window, the future). */
const BOUNDARY_AGES = [
  0,
  1,
  DAY_MS - 1,
  DAY_MS,
  29 * DAY_MS,
  30 * DAY_MS - 1,
  30 * DAY_MS,
  30 * DAY_MS + 1,
  31 * DAY_MS,
  365 * DAY_MS,
  -3_600_000,
];

/**
 * Small-integer vectors: every partial sum of pgvector's float4 dot products is then exact,
 * so SQL and the reference compute bit-identical similarities (see cosineSimilarity).
 */
function randomVector(random: () => number, spread: number): number[] {
  return Array.from({ length: EMBEDDING_DIMENSIONS }, () => randomInt(random, -spread, spread));
}

/** `base` plus uniform integer noise in [−noise, noise]: similarity ≈ 0.93 at noise 1, ≈ 0.3 at noise 10. */
function nearVector(random: () => number, base: readonly number[], noise: number): number[] {
  return base.map((x) => x + randomInt(random, -noise, noise));
}

function expectSameRanking(result: SemanticResult, reference: ReturnType<typeof rankCandidates>, listed: number) {
  const expected = reference.slice(0, listed);
  expect(result.aboveThreshold).toBe(reference.length);
  expect(result.candidates.map((c) => c.id)).toEqual(expected.map((c) => c.id));
  result.candidates.forEach((actual, i) => {
    const want = expected[i];
    if (!want) throw new Error(`no reference candidate at ${i}`);
    expect(actual.rank).toBe(want.rank);
    expect(actual.selected).toBe(want.selected);
    for (const key of ["similarity", "importance", "recency", "score"] as const) {
      expect(Math.abs(actual[key] - want[key]), `${key} of rank ${want.rank}`).toBeLessThanOrEqual(1e-6);
    }
    expect(actual.dateMatch, `dateMatch of rank ${want.rank}`).toBe(want.dateMatch);
    expect([actual.vectorRank, actual.textRank], `ranks of rank ${want.rank}`).toEqual([
      want.vectorRank,
      want.textRank,
    ]);
    for (const key of ["relevance", "textScore"] as const) {
      const [a, w] = [actual[key], want[key]];
      if (a == null || w == null) expect(a, `${key} of rank ${want.rank}`).toBe(w);
      else expect(Math.abs(a - w), `${key} of rank ${want.rank}`).toBeLessThanOrEqual(1e-9);
    }
  });
}

describe.each(DB_KINDS)("semantic branch on %s", (kind) => {
  const database = useTestDatabase(kind);

  describe("weighted: equals the reference scorer on 240 seeded-random memories", () => {
    const random = seededRandom(4242);
    // Three related queries: the memories are spread around the first, so each query sees a
    // different ranking of an overlapping candidate set.
    const base = randomVector(random, 3);
    const queries = [base, nearVector(random, base, 2), nearVector(random, base, 4)];
    const [query0 = []] = queries;
    const fixtures: (MemoryFixture & { id: string })[] = [];
    let userId = "";

    beforeAll(async () => {
      const { db } = database;
      userId = await createUser(db, "Prop");
      const otherUserId = await createUser(db, "Other");
      for (let i = 0; i < 240; i++) {
        const previous = fixtures[randomInt(random, 0, Math.max(0, fixtures.length - 1))];
        if (previous && i % 20 === 19) {
          // An exact duplicate of an earlier memory: identical score, so only the id orders them.
          fixtures.push({ ...previous, id: randomUuid(random), content: `duplicate ${i}` });
          continue;
        }
        const embedding =
          i === 7 || i === 77
            ? sparseVector({}) // zero vector: similarity NaN, must never be selected
            : i % 4 === 3
              ? randomVector(random, 3) // far: similarity ≈ 0
              : i % 10 === 5
                ? nearVector(random, base, randomInt(random, 1, 12)).map((x) => 2 * x) // scaled: same angle
                : nearVector(random, base, randomInt(random, 1, 12));
        const special = [0, 1, 0.1, 0.7, 0.5];
        const importance = i % 6 === 0 ? (special[i % special.length] ?? 0.5) : random();
        const age = i % 5 === 0 ? (BOUNDARY_AGES[(i / 5) % BOUNDARY_AGES.length] ?? 0) : random() * 60 * DAY_MS;
        fixtures.push({
          id: randomUuid(random),
          userId,
          content: `memory ${i}`,
          importance,
          embedding: i % 23 === 11 ? null : embedding,
          status: i % 17 === 3 ? (MEMORY_STATUSES[1 + (i % 3)] ?? "deleted") : "active",
          updatedAt: ago(Math.round(age)),
        });
      }
      // Another user's memories sit right on the queries: they must never appear.
      const others = queries.flatMap((query) =>
        Array.from({ length: 10 }, () => ({
          userId: otherUserId,
          content: "someone else's",
          importance: 1,
          embedding: nearVector(random, query, 1),
          updatedAt: NOW,
        })),
      );
      await insertMemories(db, [...fixtures, ...others]);
    });

    function reference(query: readonly number[], config: SemanticConfig) {
      const inputs: ScoreInput[] = fixtures
        .filter((f) => f.status === "active" && f.embedding)
        .map((f) => ({
          id: f.id,
          similarity: cosineSimilarity(query, f.embedding ?? []),
          importance: f.importance ?? 0.5,
          updatedAt: f.updatedAt ?? NOW,
        }));
      return rankCandidates(inputs, NOW, config);
    }

    it.each([0, 1, 2])("query %i: every above-threshold candidate, in order, with its components", async (q) => {
      const query = queries[q] ?? [];
      const config = { ...weighted, traceCandidateLimit: 1000 };
      const expected = reference(query, config);
      // The data is meant to straddle the threshold and the 30-day boundary; make sure it does.
      expect(expected.length).toBeGreaterThan(40);
      expect(expected.length).toBeLessThan(fixtures.length - 40);
      expect(new Set(expected.map((c) => c.recency))).toContain(0);
      expect(expected.some((c) => c.recency > 0 && c.recency < 1)).toBe(true);

      const result = await retrieveSemantic(database.db, { userId, embedding: query, now: NOW, config });
      expectSameRanking(result, expected, config.traceCandidateLimit);
    });

    it("with the default config: top 5 selected, the next 15 listed as dropped by limit", async () => {
      const expected = reference(query0, weighted);
      const result = await retrieveSemantic(database.db, {
        userId,
        embedding: query0,
        now: NOW,
        config: weighted,
      });
      expect(result.candidates).toHaveLength(weighted.traceCandidateLimit);
      expect(result.candidates.filter((c) => c.selected)).toHaveLength(weighted.semanticLimit);
      expectSameRanking(result, expected, weighted.traceCandidateLimit);
    });

    it("orders equal scores by id", async () => {
      const config = { ...weighted, traceCandidateLimit: 1000 };
      const result = await retrieveSemantic(database.db, { userId, embedding: query0, now: NOW, config });
      const ties = result.candidates.filter((c, i) => result.candidates[i + 1]?.score === c.score);
      expect(ties.length).toBeGreaterThan(0);
      for (const tie of ties) {
        const next = result.candidates[tie.rank];
        expect(next && tie.id < next.id).toBe(true);
      }
    });
  });

  describe("half precision: equals the reference scorer on the stored, half-rounded values", () => {
    // Components k/8 (2 < |k/8| < 4) plus an offset below half the half-precision spacing there
    // (2^-10): stored, every one rounds to k/8, so pgvector's float4 sums are exact and SQL and the
    // reference agree bit for bit — but only when the reference rounds to half as the column does
    // (the offsets move most unrounded similarities by more than the 1e-6 tolerance).
    const random = seededRandom(1616);
    const eighths = () => (randomInt(random, 17, 31) * (random() < 0.5 ? -1 : 1)) / 8;
    const base = Array.from({ length: EMBEDDING_DIMENSIONS }, eighths);
    /** `base` with a share of its components redrawn, then every one moved by less than 2^-10. */
    const near = (share: number) => base.map((x) => (random() < share ? eighths() : x) + (random() - 0.5) * 1.8e-3);
    const fixtures: (MemoryFixture & { id: string })[] = [];
    let userId = "";

    beforeAll(async () => {
      userId = await createUser(database.db, "Half");
      for (let i = 0; i < 160; i++) {
        fixtures.push({
          id: randomUuid(random),
          userId,
          content: `memory ${i}`,
          importance: random(),
          embedding: near(random()),
          updatedAt: ago(Math.round(random() * 40 * DAY_MS)),
        });
      }
      await insertMemories(database.db, fixtures);
    });

    it("similarities, components and order of every candidate; the unrounded ones differ", async () => {
      const query = near(0.3);
      const config = { ...weighted, similarityThreshold: -1, traceCandidateLimit: 1000 };
      const inputs = (similarityOf: (embedding: readonly number[]) => number): ScoreInput[] =>
        fixtures.map((f) => ({
          id: f.id,
          similarity: similarityOf(f.embedding ?? []),
          importance: f.importance ?? 0.5,
          updatedAt: f.updatedAt ?? NOW,
        }));
      const expected = rankCandidates(
        inputs((e) => cosineSimilarity(query, e)),
        NOW,
        config,
      );
      const result = await retrieveSemantic(database.db, { userId, embedding: query, now: NOW, config });
      expect(result.candidates).toHaveLength(fixtures.length);
      expectSameRanking(result, expected, config.traceCandidateLimit);
      const stored = new Map(expected.map((c) => [c.id, c.similarity]));
      for (const c of result.candidates) expect(c.similarity, c.id).toBe(stored.get(c.id));

      // Without the rounding (float8 components) the similarities miss the 1e-6 tolerance: the test
      // fails for a reference that does not round as the column stores.
      const unrounded = inputs((e) => {
        let [dot, na, nb] = [0, 0, 0];
        e.forEach((x, i) => {
          const y = query[i] ?? 0;
          dot += x * y;
          na += x * x;
          nb += y * y;
        });
        return dot / Math.sqrt(na * nb);
      });
      const moved = unrounded.filter((u) => Math.abs(u.similarity - (stored.get(u.id) ?? 0)) > 1e-6);
      expect(moved.length).toBeGreaterThan(fixtures.length / 2);
    });
  });

  describe("hybrid: equals the reference scorer (BM25 + reciprocal rank fusion) on 200 seeded-random memories", () => {
    const random = seededRandom(777);
    const VOCABULARY =
      "tea coffee garden river mountain piano violin lisbon berlin ramen sushi dog cat bike train sister brother running swimming deadline".split(
        " ",
      );
    const base = randomVector(random, 3);
    const words = (n: number) =>
      Array.from({ length: n }, () => VOCABULARY[randomInt(random, 0, VOCABULARY.length - 1)]);
    const fixtures: (MemoryFixture & { id: string })[] = [];
    let userId = "";

    beforeAll(async () => {
      const { db } = database;
      userId = await createUser(db, "Hybrid");
      for (let i = 0; i < 200; i++) {
        const previous = fixtures[randomInt(random, 0, Math.max(0, fixtures.length - 1))];
        if (previous && i % 20 === 19) {
          // An exact duplicate (text and vector): equal in every component, ordered by id alone.
          fixtures.push({ ...previous, id: randomUuid(random) });
          continue;
        }
        fixtures.push({
          id: randomUuid(random),
          userId,
          // Repeated words give term frequencies above 1; "memo" pads some texts with a word no query has.
          content: [...words(randomInt(random, 1, 6)), ...Array(randomInt(random, 0, 3)).fill("memo")].join(" "),
          title: i % 7 === 0 ? words(1).join(" ") : null,
          importance: random(),
          embedding:
            i === 13
              ? sparseVector({})
              : i % 4 === 3
                ? randomVector(random, 3)
                : nearVector(random, base, randomInt(random, 1, 12)),
          embeddingModel: i % 29 === 5 ? "other/model" : TEST_EMBEDDER,
          status: i % 17 === 3 ? "deleted" : "active",
          updatedAt: ago(Math.round(random() * 60 * DAY_MS)),
        });
      }
      // Creation instants for the date window, drawn without the seeded generator (the draws above
      // stay as they were): some in May 2025, some after, two exactly on the window's edges.
      fixtures.forEach((fixture, i) => {
        fixture.createdAt =
          i % 10 === 0
            ? new Date("2025-06-08T00:00:00.000Z") // "May 2025" + 7 days ends here: outside
            : i % 10 === 1
              ? new Date("2025-05-01T00:00:00.000Z") // its first instant: inside
              : ago(((i * 7919) % 70) * DAY_MS + i * 1000);
      });
      // A URL gives a lexeme with a quote in it ("/a'b"): the message's tsquery must quote it.
      const url = fixtures[7] as MemoryFixture;
      url.content = `${url.content} http://x.com/a'b`;
      await insertMemories(db, fixtures);
      // Another user's copies of the same texts: their words must count in no document frequency here.
      const other = await createUser(db, "Hybrid other");
      await insertMemories(
        db,
        fixtures.filter((_, i) => i % 3 === 0).map(({ id: _id, ...fixture }) => ({ ...fixture, userId: other })),
      );
    });

    /** What Postgres's text search makes of each memory (the one part the reference does not redo). */
    async function termDocuments() {
      const rows = await selectRows<{ id: string; lexeme: string; tf: number }>(
        database.db,
        sql`SELECT m.id, t.lexeme, coalesce(cardinality(t.positions), 1)::int AS tf
            FROM memories m CROSS JOIN LATERAL unnest(m.search_vector) AS t WHERE m.user_id = ${userId}::uuid`,
      );
      const docs = new Map<string, Map<string, number>>();
      for (const row of rows) docs.set(row.id, (docs.get(row.id) ?? new Map()).set(row.lexeme, row.tf));
      return docs;
    }

    async function queryTerms(text: string) {
      const rows = await selectRows<{ lexeme: string }>(
        database.db,
        sql`SELECT lexeme FROM unnest(to_tsvector('english', ${text}))`,
      );
      return rows.map((row) => row.lexeme);
    }

    async function reference(query: readonly number[], text: string, config: SemanticConfig) {
      const docs = await termDocuments();
      const pool = fixtures.filter(
        (f) => f.status === "active" && f.embedding && f.embeddingModel === TEST_EMBEDDER && f.id !== fixtures[13]?.id,
      );
      const fusion = config.fusion as FusionConfig;
      const text_ = bm25Scores(
        pool.map((f) => ({ id: f.id, terms: docs.get(f.id) ?? new Map() })),
        await queryTerms(text),
        { k1: fusion.bm25K1, b: fusion.bm25B },
      );
      const inputs: ScoreInput[] = pool.map((f) => ({
        id: f.id,
        similarity: cosineSimilarity(query, f.embedding ?? []),
        importance: f.importance ?? 0.5,
        updatedAt: f.updatedAt ?? NOW,
        createdAt: f.createdAt ?? undefined,
        textScore: text_.get(f.id),
      }));
      const window = config.dateWindow ? dateWindowOf(text, config.dateWindow.daysAfter) : null;
      return rankCandidates(inputs, NOW, config, window);
    }

    const retrieveHybrid = (embedding: number[], text: string, config: SemanticConfig) =>
      retrieveSemantic(database.db, { userId, embedding, embeddingModel: TEST_EMBEDDER, text, now: NOW, config });

    const hybrid = retrievalStrategies.hybrid;
    it.each([
      ["tea and sushi with my sister in Lisbon, http://x.com/a'b", { ...hybrid, similarityThreshold: 0.3 }],
      [
        "running, swimming, running",
        { ...hybrid, similarityThreshold: 0.3, fusion: { ...hybrid.fusion, textBypassesThreshold: true } },
      ],
      [
        "the piano deadline?",
        { ...hybrid, similarityThreshold: -1, weights: { similarity: 1, importance: 0, recency: 0 } },
      ],
      ["nothing in the vocabulary", { ...hybrid, similarityThreshold: 0.2 }],
      // A named month: the date-window term, on both sides.
      ["tea and sushi with my sister in May 2025", { ...hybrid, similarityThreshold: 0.3 }],
      [
        "running on 1 May 2025?",
        {
          ...hybrid,
          similarityThreshold: 0.3,
          fusion: { ...hybrid.fusion, textBypassesThreshold: true },
          dateWindow: { weight: 0.3, daysAfter: 20 },
        },
      ],
    ])("query %j: every candidate, in order, with its components", async (text, strategy) => {
      const config = { ...strategy, traceCandidateLimit: 1000 } as SemanticConfig;
      const query = nearVector(random, base, 2);
      const expected = await reference(query, text, config);
      expect(expected.length).toBeGreaterThan(20);
      const result = await retrieveHybrid(query, text, config);
      expectSameRanking(result, expected, config.traceCandidateLimit);
      if (text !== "nothing in the vocabulary") expect(expected.some((c) => c.textRank !== null)).toBe(true);
      // A message naming a date gives every candidate a dateMatch, 1 for some and 0 for others; else none.
      const matches = new Set(expected.map((c) => c.dateMatch));
      expect([...matches].sort()).toEqual(/ 2025/.test(text) ? [0, 1] : [undefined]);
      // The trace's window is the one the statement applied (a month, or a day, plus the days after).
      const window = config.dateWindow ? dateWindowOf(text, config.dateWindow.daysAfter) : null;
      expect(result.dateWindow).toEqual(window && { start: window.start.toISOString(), end: window.end.toISOString() });
      if (text.includes("May 2025"))
        expect(result.dateWindow).toEqual(
          text.includes("1 May")
            ? { start: "2025-05-01T00:00:00.000Z", end: "2025-05-22T00:00:00.000Z" }
            : { start: "2025-05-01T00:00:00.000Z", end: "2025-06-08T00:00:00.000Z" },
        );
    });

    // The statement ranks only the admitted rows and numbers the near-misses after them: their vector ranks,
    // text ranks and scores must still be the ones ranking every comparable memory gives.
    it.each([
      ["tea and sushi with my sister in Lisbon", false],
      ["running, swimming, running", true],
    ])(
      "query %j (text bypasses the threshold: %s): the near-misses, with their ranks and scores",
      async (text, bypass) => {
        const config = {
          ...hybrid,
          similarityThreshold: 0.3,
          nearMissLimit: 10,
          fusion: { ...hybrid.fusion, textBypassesThreshold: bypass },
        } as SemanticConfig;
        const query = nearVector(random, base, 2);
        const everyone = await reference(query, text, { ...config, similarityThreshold: Number.NEGATIVE_INFINITY });
        const expected = everyone
          .filter((c) => c.similarity < 0.3 && !(bypass && c.textRank !== null))
          .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1))
          .slice(0, 10);
        expect(expected).toHaveLength(10);
        const result = await retrieveHybrid(query, text, config);
        expect(result.nearMisses.map((c) => [c.id, c.rank, c.vectorRank, c.textRank])).toEqual(
          expected.map((c, i) => [c.id, i + 1, c.vectorRank, c.textRank]),
        );
        result.nearMisses.forEach((actual, i) => {
          const want = expected[i];
          expect(
            Math.abs(actual.score - (want?.score ?? Number.NaN)),
            `score of near-miss ${i + 1}`,
          ).toBeLessThanOrEqual(1e-6);
          expect(Math.abs((actual.relevance ?? 0) - (want?.relevance ?? Number.NaN))).toBeLessThanOrEqual(1e-9);
        });
      },
    );
  });

  describe("filters and accounting", () => {
    /** Query along axis 0; each memory's similarity is fixed by its vector. */
    const query = sparseVector({ 0: 1 });

    it("keeps similarity exactly at the threshold; below it, importance cannot rescue a memory", async () => {
      const { db } = database;
      const userId = await createUser(db, "Edge");
      const [atThreshold, below] = await insertMemories(db, [
        // cos = 3 / √(9 + 81 + 9 + 1) = 3/10
        {
          userId,
          content: "at",
          importance: 0,
          embedding: sparseVector({ 0: 3, 1: 9, 2: 3, 3: 1 }),
          updatedAt: ago(90 * DAY_MS),
        },
        // cos = 3 / √103 ≈ 0.2956, with the best possible importance and recency
        {
          userId,
          content: "below",
          importance: 1,
          embedding: sparseVector({ 0: 3, 1: 9, 2: 3, 3: 2 }),
          updatedAt: NOW,
        },
      ]);
      const result = await retrieveSemantic(db, { userId, embedding: query, now: NOW, config: retrievalConfig });
      expect(result.candidates.map((c) => c.id)).toEqual([atThreshold]);
      expect(result.candidates[0]?.similarity).toBeCloseTo(0.3, 12);
      expect(result.candidates.map((c) => c.id)).not.toContain(below);
    });

    it("only the user's active memories with a non-zero embedding", async () => {
      const { db } = database;
      const userId = await createUser(db, "Owner");
      const intruderId = await createUser(db, "Intruder");
      const near = sparseVector({ 0: 1 });
      const [active] = await insertMemories(db, [
        { userId, content: "active", embedding: near },
        { userId, content: "no embedding", embedding: null },
        { userId, content: "zero vector", embedding: sparseVector({}) },
        ...MEMORY_STATUSES.filter((s) => s !== "active").map((status) => ({
          userId,
          content: status,
          status,
          embedding: near,
        })),
        { userId: intruderId, content: "another user's", importance: 1, embedding: near },
      ]);
      const result = await retrieveSemantic(db, { userId, embedding: query, now: NOW, config: retrievalConfig });
      expect(result.candidates.map((c) => c.id)).toEqual([active]);
      expect(result.aboveThreshold).toBe(1);
    });

    it("given an embedder, compares only the memories that embedder embedded", async () => {
      const { db } = database;
      const userId = await createUser(db, "Embedders");
      const near = sparseVector({ 0: 1 });
      const [mine, , unlabelled] = await insertMemories(db, [
        { userId, content: "mine", embedding: near, embeddingModel: "offline/a" },
        { userId, content: "another embedder's", embedding: near, embeddingModel: "openai/b" },
        { userId, content: "no label", embedding: near, embeddingModel: null },
      ]);
      const run = (embeddingModel?: string) =>
        retrieveSemantic(db, { userId, embedding: query, embeddingModel, now: NOW, config: retrievalConfig });
      expect((await run("offline/a")).candidates.map((c) => c.id)).toEqual([mine]);
      expect((await run()).candidates.map((c) => c.id)).toHaveLength(3);
      expect((await run()).candidates.map((c) => c.id)).toContain(unlabelled);
    });

    it("marks rank > limit as dropped, lists at most traceCandidateLimit rows, counts all above threshold", async () => {
      const { db } = database;
      const userId = await createUser(db, "Many");
      // Eight memories at increasing angles from the query: similarity strictly decreasing.
      const ids = await insertMemories(
        db,
        Array.from({ length: 8 }, (_, i) => ({
          userId,
          content: `m${i}`,
          embedding: sparseVector({ 0: 10, 1: i }),
          updatedAt: NOW,
        })),
      );
      const config = { ...retrievalConfig, traceCandidateLimit: 7 };
      const result = await retrieveSemantic(db, { userId, embedding: query, now: NOW, config });
      expect(result.aboveThreshold).toBe(8);
      expect(result.candidates.map((c) => c.id)).toEqual(ids.slice(0, 7));
      expect(result.candidates.map((c) => c.selected)).toEqual([true, true, true, true, true, false, false]);
      expect(result.candidates.map((c) => c.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });

    it("writes nothing; access.ts counts the selected memories once each, owner-scoped, never touching updated_at", async () => {
      const { db } = database;
      const userId = await createUser(db, "Access");
      const stranger = await createUser(db, "Stranger");
      const updatedAt = ago(3 * DAY_MS);
      const ids = await insertMemories(
        db,
        Array.from({ length: 7 }, (_, i) => ({
          userId,
          content: `m${i}`,
          embedding: sparseVector({ 0: 10, 1: i }),
          updatedAt,
        })),
      );
      const read = () =>
        db
          .select({
            id: memories.id,
            accessCount: usageColumns.accessCount,
            lastAccessedAt: usageColumns.lastAccessedAt,
            updatedAt: memories.updatedAt,
          })
          .from(memories)
          .where(inArray(memories.id, ids))
          .then((rows) => ids.map((id) => rows.find((row) => row.id === id)));

      const result = await retrieveSemantic(db, { userId, embedding: query, now: NOW, config: retrievalConfig });
      const selected = result.candidates.filter((c) => c.selected).map((c) => c.id);
      expect(selected).toEqual(ids.slice(0, 5));
      expect((await read()).map((row) => row?.accessCount)).toEqual([0, 0, 0, 0, 0, 0, 0]);

      await recordAccess(db, { userId, memoryIds: [...selected, selected[0] as string], now: NOW });
      const later = new Date(NOW.getTime() + 60_000);
      await recordAccess(db, { userId, memoryIds: selected, now: later });
      await recordAccess(db, { userId: stranger, memoryIds: ids, now: later });

      const rows = await read();
      expect(rows.map((row) => row?.accessCount)).toEqual([2, 2, 2, 2, 2, 0, 0]);
      expect(rows.map((row) => row?.lastAccessedAt?.toISOString() ?? null)).toEqual([
        ...Array(5).fill(later.toISOString()),
        null,
        null,
      ]);
      expect(rows.map((row) => row?.updatedAt.toISOString())).toEqual(Array(7).fill(updatedAt.toISOString()));
    });

    it("rejects an embedding it cannot compare", async () => {
      const { db } = database;
      const userId = await createUser(db, "Invalid");
      const run = (embedding: number[]) =>
        retrieveSemantic(db, { userId, embedding, now: NOW, config: retrievalConfig });
      await expect(run([1, 0, 0])).rejects.toThrow(`has 3 dimensions, expected ${EMBEDDING_DIMENSIONS}`);
      await expect(run(sparseVector({}))).rejects.toThrow("zero vector");
      await expect(run(sparseVector({ 5: Number.NaN }))).rejects.toThrow("non-finite");
      await expect(run(sparseVector({ 5: 70_000 }))).rejects.toThrow("outside half precision's range ±65504");
    });
  });

  it("reports the memory's stored fields", async () => {
    const { db } = database;
    const userId = await createUser(db, "Fields");
    const createdAt = new Date("2025-01-02T03:04:05.678Z");
    const [id] = await insertMemories(db, [
      {
        userId,
        title: "Tea",
        content: "Prefers green tea",
        importance: 0.7,
        embedding: sparseVector({ 0: 1 }),
        createdAt,
        updatedAt: ago(2 * DAY_MS + 5),
      },
    ]);
    const result = await retrieveSemantic(db, {
      userId,
      embedding: sparseVector({ 0: 2 }),
      now: NOW,
      config: weighted,
    });
    expect(result.candidates).toEqual([
      {
        id,
        title: "Tea",
        content: "Prefers green tea",
        importance: Math.fround(0.7),
        createdAt,
        updatedAt: ago(2 * DAY_MS + 5),
        similarity: 1,
        recency: 1 - 2 / 30,
        score: 0.6 * 1 + 0.3 * Math.fround(0.7) + 0.1 * (1 - 2 / 30),
        rank: 1,
        selected: true,
      },
    ]);
    const [stored] = await db
      .select(withUsage)
      .from(memories)
      .where(eq(memories.id, id ?? ""));
    // Retrieval reads only: access is counted for what a prompt carries (access.ts).
    expect(stored?.accessCount).toBe(0);
  });
});
