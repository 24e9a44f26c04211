/**
 * The fast path (fast.ts) against the exact statement, on both databases, on seeded realistic
 * memories (bench/corpus.ts, offline embedder): whenever it certifies its top, that top is the
 * exact statement's — same memories, same order, same score components; and when its certificate
 * fails, retrieveSemantic answers with the exact statement and the trace says so. Not timed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateMemories, generateQuestions } from "@/bench/corpus";
import { retrievalStrategies } from "@/core/config";
import type { Database } from "@/db/client";
import { embedOffline, offlineEmbeddingModel } from "@/lib/ai/offline/embedder";
import { createTestDatabase, DB_KINDS } from "@/tests/db";
import { createUser, DAY_MS, insertMemories } from "@/tests/fixtures/memories";
import { assembleContext } from "./assemble";
import { DEFAULT_ASSEMBLY_CONFIG, forEmbedder } from "./assembly-config";
import { type FastPathConfig, retrieveFastRows } from "./fast";
import { retrieveSemantic, type SemanticCandidate, type SemanticConfig, toResult } from "./retrieve";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const MODEL = offlineEmbeddingModel.modelId;
const MEMORIES = 300;
const QUESTIONS = generateQuestions(5, 20);

type Variant = "hybrid" | "weighted" | "hybrid, no threshold";

/**
 * A strategy with a fast path for every user. "no threshold": every memory is admitted, so only the
 * score bound (not the threshold) can keep the memories outside the candidates out.
 */
function configOf(
  variant: Variant,
  vectorCandidates: number,
  textCandidates: number,
): SemanticConfig & { fastPath: FastPathConfig } {
  const name = variant === "weighted" ? "weighted" : "hybrid";
  const fastPath = { minMemories: 0, vectorCandidates, textCandidates };
  const config = { ...forEmbedder(retrievalStrategies[name], MODEL), fastPath };
  return variant === "hybrid, no threshold" ? { ...config, similarityThreshold: -1 } : config;
}

/** The selected rows, every number of their score (ranks exactly, floats to 1e-9). */
function expectSameTop(fast: SemanticCandidate[], exact: SemanticCandidate[]) {
  const top = (rows: SemanticCandidate[]) => rows.filter((row) => row.selected);
  expect(top(fast).map((row) => [row.id, row.rank, row.vectorRank, row.textRank])).toEqual(
    top(exact).map((row) => [row.id, row.rank, row.vectorRank, row.textRank]),
  );
  for (const [i, row] of top(fast).entries()) {
    const want = top(exact)[i] as SemanticCandidate;
    for (const key of ["similarity", "importance", "recency", "score", "relevance", "textScore"] as const) {
      const [a, b] = [row[key], want[key]];
      if (a == null || b == null) expect(a, key).toBe(b);
      else expect(Math.abs(a - b), key).toBeLessThanOrEqual(1e-9);
    }
  }
}

describe.each(DB_KINDS)("the fast path on %s", (kind) => {
  let database: Database;
  let userId: string;
  const embeddings = QUESTIONS.map(embedOffline);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    userId = await createUser(db, "Fast");
    const other = await createUser(db, "Other");
    const seeded = generateMemories(3, MEMORIES);
    const rows = seeded.map((memory) => ({
      content: memory.content,
      type: memory.type,
      importance: memory.importance,
      embedding: embedOffline(memory.content),
      embeddingModel: MODEL,
      updatedAt: new Date(NOW.getTime() - memory.ageDays * DAY_MS),
    }));
    // Another user holds copies of a third of them: they must never count in this user's corpus.
    await insertMemories(db, [
      ...rows.map((row) => ({ ...row, userId })),
      ...rows.filter((_, i) => i % 3 === 0).map((row) => ({ ...row, userId: other })),
    ]);
  });
  afterAll(async () => {
    await database?.close();
  });

  it.each(["hybrid", "weighted", "hybrid, no threshold"] as const)(
    "%s: a certified top is the exact statement's top",
    async (name) => {
      const { db } = database;
      const fastConfig = configOf(name, 60, 60);
      const exactConfig = { ...fastConfig, fastPath: null };
      let certified = 0;
      for (const [i, text] of QUESTIONS.entries()) {
        const query = { userId, embedding: embeddings[i] as number[], embeddingModel: MODEL, text, now: NOW };
        const exact = await retrieveSemantic(db, { ...query, config: exactConfig });
        expect([exact.path, exact.certified]).toEqual(["exact", null]);
        const fast = await retrieveFastRows(db, { ...query, config: fastConfig }, fastConfig.fastPath);
        if (!fast.certified) continue;
        certified++;
        expectSameTop(toResult(fast.rows, fastConfig).candidates, exact.candidates);
        const chosen = await retrieveSemantic(db, { ...query, config: fastConfig });
        expect([chosen.path, chosen.certified]).toEqual(["fast", true]);
        expectSameTop(chosen.candidates, exact.candidates);
        expect(chosen.waitingForReembedding).toBe(exact.waitingForReembedding);
      }
      // Most questions certify with 60 + 60 candidates out of 300 (else this test would prove little).
      expect(certified).toBeGreaterThanOrEqual(QUESTIONS.length / 2);
    },
  );

  it("falls back to the exact statement when the certificate fails, and the trace says so", async () => {
    const { db } = database;
    // Three candidates of each kind: the bound on the rest is far above any fifth score.
    const narrow = configOf("hybrid", 3, 3);
    const text = QUESTIONS[0] as string;
    const query = { userId, embedding: embeddings[0] as number[], embeddingModel: MODEL, text, now: NOW };
    const fast = await retrieveFastRows(db, { ...query, config: narrow }, narrow.fastPath);
    expect(fast.certified).toBe(false);
    const exact = await retrieveSemantic(db, { ...query, config: { ...narrow, fastPath: null } });
    const fellBack = await retrieveSemantic(db, { ...query, config: narrow });
    expect([fellBack.path, fellBack.certified]).toEqual(["exact", false]);
    expect(fellBack.candidates).toEqual(exact.candidates);
    expect(fellBack.aboveThreshold).toBe(exact.aboveThreshold);

    const assemble = (retrieval: SemanticConfig) =>
      assembleContext(db, {
        userId,
        message: text,
        history: [],
        mode: "conversational",
        memoryEnabled: true,
        embed: async () => embeddings[0] as number[],
        embeddingModel: MODEL,
        now: NOW,
        countAccess: false,
        config: { ...DEFAULT_ASSEMBLY_CONFIG, retrieval: { ...DEFAULT_ASSEMBLY_CONFIG.retrieval, ...retrieval } },
      });
    expect((await assemble(narrow)).trace.semantic).toMatchObject({ path: "exact", certified: false });
    expect((await assemble({ ...narrow, fastPath: null })).trace.semantic).toMatchObject({
      path: "exact",
      certified: null,
    });
    // Below minMemories the exact statement runs without trying the fast path.
    const small = { ...narrow, fastPath: { minMemories: MEMORIES + 1, vectorCandidates: 3, textCandidates: 3 } };
    expect((await assemble(small)).trace.semantic).toMatchObject({ path: "exact", certified: null });
  });

  it("takes the fast path in the chat turn's assembly when it certifies", async () => {
    const { db } = database;
    const wide = configOf("hybrid", 60, 60);
    for (const [i, text] of QUESTIONS.entries()) {
      const query = { userId, embedding: embeddings[i] as number[], embeddingModel: MODEL, text, now: NOW };
      const fast = await retrieveFastRows(db, { ...query, config: wide }, wide.fastPath);
      if (!fast.certified) continue;
      const { trace } = await assembleContext(db, {
        userId,
        message: text,
        history: [],
        mode: "conversational",
        memoryEnabled: true,
        embed: async () => embeddings[i] as number[],
        embeddingModel: MODEL,
        now: NOW,
        countAccess: false,
        config: { ...DEFAULT_ASSEMBLY_CONFIG, retrieval: { ...DEFAULT_ASSEMBLY_CONFIG.retrieval, ...wide } },
      });
      expect(trace.semantic).toMatchObject({ path: "fast", certified: true });
      return;
    }
    throw new Error("no question certified");
  });
});
