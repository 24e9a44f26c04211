/**
 * On both databases: the pinned branch (always in context, capped, not an edit), the
 * near-misses below the threshold in the trace, and access counted for every memory a prompt
 * carries — once, whatever branches chose it — and never by a preview.
 */

import { eq, inArray, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { retrievalConfig, retrievalStrategies } from "@/core/config";
import type { Db } from "@/db/client";
import { withUsage } from "@/db/queries/memory-usage";
import { memories } from "@/db/schema";
import { editMemory, memoryEmbeddingText } from "@/lib/memory/store/memory-store";
import { embedOffline } from "@/lib/offline/embedder";
import { DB_KINDS } from "@/tests/db";
import { OFFLINE_EMBEDDER_ID } from "@/tests/fixtures/jobs";
import { createConversation, createUser, insertMemories, sparseVector, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { type AssembleInput, assembleContext, previewContext } from "./assemble";
import { retrieveSemantic } from "./retrieve";
import { cosineSimilarity, scoreCandidate } from "./score";

const NOW = new Date("2025-06-15T12:00:00.000Z");
const DINNER = "What should I cook for dinner tonight?";
const embedder = { model: OFFLINE_EMBEDDER_ID, embed: async (texts: string[]) => texts.map(embedOffline) };

/** Memories embedded by the offline embedder, as the app stores them ("title: content"). */
function offlineMemory(userId: string, title: string, content: string, extra: Record<string, unknown> = {}) {
  return {
    userId,
    title,
    content,
    importance: 0.5,
    embedding: embedOffline(memoryEmbeddingText({ title, content })),
    embeddingModel: OFFLINE_EMBEDDER_ID,
    createdAt: new Date(NOW.getTime() - 86_400_000),
    updatedAt: new Date(NOW.getTime() - 86_400_000),
    ...extra,
  };
}

const UNRELATED: [string, string][] = [
  ["Job", "Works as a nurse"],
  ["Pet", "Has a cat called Miso"],
  ["Bike", "Bought a new bike"],
  ["Tea", "Prefers green tea"],
  ["Seat", "Prefers window seats on flights"],
  ["Flights", "Dislikes early flights"],
  ["Sister", "Sister's name is Maya"],
  ["Home", "Lives in Bergen"],
  ["Car", "Drives an old Volvo"],
  ["Music", "Plays the cello on Sundays"],
  ["Languages", "Learning Portuguese"],
];

describe.each(DB_KINDS)("retrieval branches on %s", (kind) => {
  const database = useTestDatabase(kind);

  const input = (userId: string, extra: Partial<AssembleInput> = {}): AssembleInput => ({
    userId,
    userName: "Ada",
    message: DINNER,
    history: [],
    mode: "conversational",
    memoryEnabled: true,
    embed: async (text) => embedOffline(text),
    embeddingModel: OFFLINE_EMBEDDER_ID,
    now: NOW,
    ...extra,
  });

  const rowsOf = (ids: readonly string[]) =>
    database.db
      .select(withUsage)
      .from(memories)
      .where(inArray(memories.id, [...ids]))
      .then((rows) => ids.map((id) => rows.find((row) => row.id === id)));

  describe("near-misses", () => {
    it("lists a memory below the threshold with fate below_threshold and its similarity and score", async () => {
      const userId = await createUser(database.db, "Ada");
      const [dinner = "", vegetarian = ""] = await insertMemories(database.db, [
        offlineMemory(userId, "Dinner", "Loves cooking pasta for dinner"),
        offlineMemory(userId, "Diet", "Vegetarian since January", { importance: 0.9 }),
        ...UNRELATED.slice(0, 6).map(([title, content]) => offlineMemory(userId, title, content)),
      ]);

      const { trace } = await previewContext(database.db, input(userId));
      const threshold = trace.config.retrieval.similarityThreshold;
      expect(threshold).toBe(0.1);
      expect(trace.candidates.find((c) => c.memoryId === dinner)).toMatchObject({
        branch: "semantic",
        fate: "included",
      });

      const miss = trace.candidates.find((c) => c.memoryId === vegetarian);
      const expected = cosineSimilarity(embedOffline(DINNER), embedOffline("Diet: Vegetarian since January"));
      expect(miss).toMatchObject({ branch: "semantic", fate: "below_threshold", line: null, selectedBy: [] });
      expect(miss?.similarity).toBeCloseTo(expected, 5);
      expect(miss?.similarity).toBeLessThan(threshold);
      expect(miss?.score).toEqual(expect.any(Number));
      expect(miss?.vectorRank).toEqual(expect.any(Number)); // hybrid: every number the score is made of

      // The near-misses: the most similar below the threshold (here all 7), by similarity, after every other row.
      const misses = trace.candidates.filter((c) => c.fate === "below_threshold");
      expect(misses).toHaveLength(7);
      expect(trace.semantic).toMatchObject({ aboveThreshold: 1, nearMisses: 7, path: "exact" });
      expect(trace.semantic).not.toHaveProperty("certified");
      expect(misses.map((c) => c.rank)).toEqual(misses.map((_, i) => i + 1));
      const similarities = misses.map((c) => c.similarity ?? Number.NaN);
      expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
      expect(trace.candidates.slice(-misses.length)).toEqual(misses);
      expect(trace.memoryLines).not.toContain("• Diet: Vegetarian since January");
    });

    it("are exactly the most similar memories below the threshold, scored as the reference scores them", async () => {
      const userId = await createUser(database.db, "Hand");
      // Similarity 1/√(1 + k²): 1, 0.707, 0.447, 0.316 | 0.243, 0.196, 0.164, 0.141, 0.124.
      const ids = await insertMemories(
        database.db,
        Array.from({ length: 9 }, (_, k) => ({
          userId,
          content: `m${k}`,
          importance: 0.1 * k,
          embedding: sparseVector({ 0: 1, 1: k }),
          updatedAt: new Date(NOW.getTime() - k * 86_400_000),
        })),
      );
      const config = { ...retrievalStrategies.weighted, nearMissLimit: 3 };
      const query = { userId, embedding: sparseVector({ 0: 1 }), embeddingModel: TEST_EMBEDDER, now: NOW, config };
      const result = await retrieveSemantic(database.db, query);
      expect(result.candidates.map((c) => c.id)).toEqual(ids.slice(0, 4));
      expect(result.nearMisses.map((c) => [c.id, c.rank, c.selected])).toEqual([
        [ids[4], 1, false],
        [ids[5], 2, false],
        [ids[6], 3, false],
      ]);
      for (const [i, miss] of result.nearMisses.entries()) {
        const k = i + 4;
        const reference = scoreCandidate(
          {
            similarity: 1 / Math.sqrt(1 + k * k),
            importance: 0.1 * k,
            updatedAt: new Date(NOW.getTime() - k * 86_400_000),
          },
          NOW,
          config,
        );
        expect(miss.similarity).toBeCloseTo(reference.similarity, 6);
        expect(miss.score).toBeCloseTo(reference.score, 6);
        expect(miss.recency).toBeCloseTo(reference.recency, 12);
      }
      // No threshold, no near-miss; a limit of 0 lists none; a near-miss is never counted.
      const nearest = { ...retrievalStrategies.nearest, nearMissLimit: 3 };
      expect((await retrieveSemantic(database.db, { ...query, config: nearest })).nearMisses).toEqual([]);
      expect(
        (await retrieveSemantic(database.db, { ...query, config: { ...config, nearMissLimit: 0 } })).nearMisses,
      ).toEqual([]);
      // Retrieval writes nothing (access.ts counts what a prompt carries, never a near-miss).
      expect((await rowsOf(ids)).map((row) => row?.accessCount)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    });
  });

  describe("pinned memories", () => {
    it("are always in the prompt and the trace (branch pinned), capped, and gone once unpinned; pinning is not an edit", async () => {
      const userId = await createUser(database.db, "Pia");
      const [dinner = "", ...unrelated] = await insertMemories(database.db, [
        offlineMemory(userId, "Dinner", "Loves cooking pasta for dinner", { importance: 0.9 }),
        ...UNRELATED.slice(0, 5).map(([title, content], i) =>
          offlineMemory(userId, title, content, { importance: 0.1 * (i + 1) }),
        ),
      ]);
      const [nurse = ""] = unrelated;
      const [before] = await rowsOf([nurse]);

      const pinned = await editMemory(database.db, { userId, memoryId: nurse, patch: { pinned: true } }, embedder);
      expect(pinned.pinned).toBe(true);
      const [after] = await rowsOf([nurse]);
      expect(after?.editedAt).toBeNull();
      expect(after?.updatedAt).toEqual(before?.updatedAt);
      expect(after?.embedding).toEqual(before?.embedding);

      const { trace } = await previewContext(database.db, input(userId));
      // Unrelated to the question (its similarity is far below the threshold), and still in context, first.
      expect(trace.memoryLines[0]).toBe("• Job: Works as a nurse");
      expect(trace.memoryLines).toContain("• Dinner: Loves cooking pasta for dinner");
      expect(trace.pinned).toEqual({ returned: 1, selected: 1 });
      expect(trace.candidates[0]).toMatchObject({
        memoryId: nurse,
        branch: "pinned",
        rank: 1,
        fate: "included",
        selectedBy: ["pinned"],
        line: "• Job: Works as a nurse",
      });
      // Its semantic row, if any, is a near-miss: pinned does not make it a similarity match.
      expect(
        trace.candidates.filter((c) => c.memoryId === nurse && c.branch === "semantic").map((c) => c.fate),
      ).toEqual(
        trace.candidates.some((c) => c.memoryId === nurse && c.branch === "semantic") ? ["below_threshold"] : [],
      );

      // Pin all five: only pinnedLimit (3) go in, the most important first; the rest are dropped by limit.
      for (const id of unrelated.slice(1))
        await editMemory(database.db, { userId, memoryId: id, patch: { pinned: true } }, embedder);
      const capped = (await previewContext(database.db, input(userId))).trace;
      const pinnedRows = capped.candidates.filter((c) => c.branch === "pinned");
      expect(retrievalConfig.pinnedLimit).toBe(3);
      expect(pinnedRows.map((c) => [c.memoryId, c.fate])).toEqual([
        [unrelated[4], "included"],
        [unrelated[3], "included"],
        [unrelated[2], "included"],
        [unrelated[1], "dropped_limit"],
        [unrelated[0], "dropped_limit"],
      ]);
      expect(capped.pinned).toEqual({ returned: 5, selected: 3 });
      expect(capped.memoryLines.length).toBeLessThanOrEqual(trace.config.formatter.maxMemories);
      expect(capped.memoryLines.slice(0, 3)).toEqual(pinnedRows.slice(0, 3).map((c) => c.line));
      expect(capped.memoryLines).not.toContain("• Job: Works as a nurse");

      // Unpinned: no longer in the prompt or on a pinned row.
      for (const id of unrelated.slice(1)) {
        await editMemory(database.db, { userId, memoryId: id, patch: { pinned: false } }, embedder);
      }
      const unpinned = (await previewContext(database.db, input(userId))).trace;
      expect(unpinned.memoryLines).toEqual(["• Job: Works as a nurse", "• Dinner: Loves cooking pasta for dinner"]);
      await editMemory(database.db, { userId, memoryId: nurse, patch: { pinned: false } }, embedder);
      const none = (await previewContext(database.db, input(userId))).trace;
      expect(none.memoryLines).toEqual(["• Dinner: Loves cooking pasta for dinner"]);
      expect(none.candidates.filter((c) => c.branch === "pinned")).toEqual([]);
      expect(none.pinned).toEqual({ returned: 0, selected: 0 });
      const [final] = await rowsOf([nurse]);
      expect(final?.editedAt).toBeNull();
      expect(final?.updatedAt).toEqual(before?.updatedAt);
      expect(dinner).not.toBe("");
    });

    it("a pinned memory the semantic branch also selects is sent once, as pinned; an edit with a pin is still an edit", async () => {
      const userId = await createUser(database.db, "Dup");
      const [dinner = ""] = await insertMemories(database.db, [
        offlineMemory(userId, "Dinner", "Loves cooking pasta for dinner"),
      ]);
      await editMemory(database.db, { userId, memoryId: dinner, patch: { pinned: true, importance: 0.7 } }, embedder);
      const [row] = await rowsOf([dinner]);
      expect(row?.editedAt).toBeInstanceOf(Date);

      const { trace } = await previewContext(database.db, input(userId));
      expect(trace.candidates.map((c) => [c.branch, c.fate, c.selectedBy])).toEqual([
        ["pinned", "included", ["pinned", "semantic"]],
        ["semantic", "dropped_dedup", ["pinned", "semantic"]],
      ]);
      expect(trace.memoryLines).toEqual(["• Dinner: Loves cooking pasta for dinner"]);
    });
  });

  describe("access accounting", () => {
    it("counts every memory the prompt carries once, whichever branches chose it; a preview counts nothing", async () => {
      const userId = await createUser(database.db, "Acc");
      const conversationId = await createConversation(database.db, userId);
      const fromChat = { sourceConversationId: conversationId };
      const [semantic = "", both = "", chatOnly = "", pin = "", miss = ""] = await insertMemories(database.db, [
        offlineMemory(userId, "Dinner", "Loves cooking pasta for dinner"),
        offlineMemory(userId, "Cooking", "Cooks dinner for two every evening", fromChat),
        offlineMemory(userId, "Home", "Lives in Bergen", fromChat),
        offlineMemory(userId, "Job", "Works as a nurse", { pinned: true }),
        offlineMemory(userId, "Diet", "Vegetarian since January"),
      ]);
      const ids = [semantic, both, chatOnly, pin, miss];
      const counts = async () => (await rowsOf(ids)).map((row) => row?.accessCount);

      const preview = await previewContext(database.db, input(userId, { conversationId }));
      expect(preview.trace.accessCountedIds).toEqual([]);
      expect(await counts()).toEqual([0, 0, 0, 0, 0]);

      const { trace } = await assembleContext(database.db, input(userId, { conversationId }));
      const branchesOf = (id: string) =>
        trace.candidates.find((c) => c.memoryId === id && c.fate === "included")?.selectedBy;
      expect(branchesOf(semantic)).toEqual(["semantic"]);
      expect(branchesOf(both)).toEqual(["semantic", "conversation"]);
      expect(branchesOf(chatOnly)).toEqual(["conversation"]);
      expect(branchesOf(pin)).toEqual(["pinned"]);
      expect(trace.candidates.find((c) => c.memoryId === miss)?.fate).toBe("below_threshold");
      expect(new Set(trace.accessCountedIds)).toEqual(new Set([semantic, both, chatOnly, pin]));

      expect(await counts()).toEqual([1, 1, 1, 1, 0]);
      const rows = await rowsOf(ids);
      expect(rows.map((row) => row?.lastAccessedAt?.toISOString() ?? null)).toEqual([
        NOW.toISOString(),
        NOW.toISOString(),
        NOW.toISOString(),
        NOW.toISOString(),
        null,
      ]);
      // Reading is not updating: recency is unchanged.
      expect(rows.every((row) => row?.updatedAt.getTime() === NOW.getTime() - 86_400_000)).toBe(true);

      // A second turn counts again; another preview still nothing.
      await assembleContext(database.db, input(userId, { conversationId }));
      await previewContext(database.db, input(userId, { conversationId }));
      expect(await counts()).toEqual([2, 2, 2, 2, 0]);
      const [other] = await database.db.select(withUsage).from(memories).where(eq(memories.id, miss));
      expect(other?.lastAccessedAt).toBeNull();
    });

    it("a failed access count sends no memory: status failed at the access stage, nothing counted", async () => {
      const userId = await createUser(database.db, "Fail");
      const [dinner = ""] = await insertMemories(database.db, [
        offlineMemory(userId, "Dinner", "Loves cooking pasta for dinner"),
      ]);
      const dialect = new PgDialect();
      // The database refuses the access count's statement only; every read works.
      const refusing = new Proxy(database.db, {
        get(target, key, receiver) {
          if (key !== "execute") return Reflect.get(target, key, receiver);
          return (query: SQL) => {
            if (dialect.sqlToQuery(query).sql.trim().startsWith("INSERT INTO memory_usage")) {
              return Promise.reject(new Error("permission denied for table memory_usage"));
            }
            return target.execute(query);
          };
        },
      }) as Db;
      const { messages, trace } = await assembleContext(refusing, input(userId));
      expect(trace).toMatchObject({
        status: "failed",
        failedStage: "access",
        error: "permission denied for table memory_usage",
        candidates: [],
        memoryLines: [],
        accessCountedIds: [],
      });
      expect(messages[0]?.content).not.toContain("Loves cooking pasta");
      expect((await rowsOf([dinner]))[0]?.accessCount).toBe(0);
    });
  });
});
