/**
 * The memory tools' SQL (list_memories) and access counting, and LIFELINE_RETRIEVAL_STRATEGY
 * through the composition root (lib/runtime.ts) changing what retrieval does — on PGlite and
 * Postgres, one database per kind for both.
 */

import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { withUsage } from "@/db/queries/memory-usage";
import { memories } from "@/db/schema";
import { processAssemblyConfig } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import { createUser, insertMemories, sparseVector, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { assembleContext } from "./assemble";
import { listMemoriesInput, listMemoriesTool } from "./tools";

const NOW = new Date("2025-06-15T12:00:00.000Z");
const HOUR = 3_600_000;
const QUESTION = "Which one?";
const embed = async () => sparseVector({ 0: 1 });

/** A unit vector at `similarity` to the query's. */
const at = (similarity: number) => sparseVector({ 0: similarity, 1: Math.sqrt(1 - similarity ** 2) });

describe.each(DB_KINDS)("memory tools and the strategy setting on %s", (kind) => {
  const database = useTestDatabase(kind);

  describe("list_memories", () => {
    let userId = "";

    beforeAll(async () => {
      userId = await createUser(database.db, "Lister");
      const other = await createUser(database.db, "Other");
      const embedding = sparseVector({ 0: 1 });
      await insertMemories(database.db, [
        { userId, type: "goal", content: "Run a marathon", importance: 0.9, updatedAt: NOW, embedding },
        { userId, type: "goal", content: "Learn Portuguese", importance: 0.6, updatedAt: NOW, embedding },
        // Same importance, updated later: listed first of the two.
        {
          userId,
          type: "goal",
          content: "Read 20 books",
          importance: 0.6,
          updatedAt: new Date(+NOW + HOUR),
          embedding,
        },
        { userId, type: "preference", content: "Prefers green tea", importance: 0.5, updatedAt: NOW, embedding },
        { userId, type: "goal", content: "Old goal", importance: 1, status: "deleted", updatedAt: NOW, embedding },
        { userId: other, type: "goal", content: "Someone else's goal", importance: 1, updatedAt: NOW, embedding },
      ]);
    });

    const run = (input: unknown, counted = new Set<string>()) =>
      listMemoriesTool(database.db, { userId, now: () => NOW, counted }, listMemoriesInput.parse(input));

    it("lists the user's active memories of a type, the most important first, then the most recently updated", async () => {
      const result = await run({ type: "goal" });
      expect(result.rows.map((row) => row.content)).toEqual(["Run a marathon", "Read 20 books", "Learn Portuguese"]);
      expect(result.matching).toBe(3);
      expect(result.output.note).toBe("3 memories of type goal");
      expect(result.rows.every((row) => row.fate === "returned" && row.type === "goal")).toBe(true);
    });

    it("without a type lists every type; a limit bounds it and the note says how many matched", async () => {
      const all = await run({});
      expect(all.rows).toHaveLength(4);
      const limited = await run({ limit: 2 });
      expect(limited.output.memories.map((memory) => memory.content)).toEqual(["Run a marathon", "Read 20 books"]);
      expect(limited).toMatchObject({ matching: 4, limit: 2 });
      expect(limited.output.note).toBe("the 2 most important of 4 memories");
      expect(() => listMemoriesInput.parse({ limit: 21 })).toThrow();
      expect(() => listMemoriesInput.parse({ type: "secret" })).toThrow();
    });

    it("counts an access for each memory returned, once per answer", async () => {
      const before = await database.db.select(withUsage).from(memories).where(eq(memories.userId, userId));
      const counted = new Set<string>();
      const first = await run({ type: "preference" }, counted);
      const again = await run({ type: "preference" }, counted);
      expect(first.accessCountedIds).toHaveLength(1);
      expect(again.accessCountedIds).toEqual([]);
      const after = await database.db.select(withUsage).from(memories).where(eq(memories.userId, userId));
      const tea = (rows: typeof before) => rows.find((row) => row.content === "Prefers green tea");
      expect((tea(after)?.accessCount ?? 0) - (tea(before)?.accessCount ?? 0)).toBe(1);
      expect(tea(after)?.lastAccessedAt?.toISOString()).toBe(NOW.toISOString());
      expect(tea(after)?.updatedAt.toISOString()).toBe(NOW.toISOString());
    });

    it("two calls of one step, run in parallel, count a memory both return once", async () => {
      const before = await database.db.select(withUsage).from(memories).where(eq(memories.userId, userId));
      const counted = new Set<string>();
      const [first, second] = await Promise.all([run({ type: "goal" }, counted), run({}, counted)]);
      expect([...(first?.accessCountedIds ?? []), ...(second?.accessCountedIds ?? [])].sort()).toEqual(
        [...counted].sort(),
      );
      const after = await database.db.select(withUsage).from(memories).where(eq(memories.userId, userId));
      const increments = after.map(
        (row) => (row.accessCount ?? 0) - (before.find((b) => b.id === row.id)?.accessCount ?? 0),
      );
      expect(increments.filter((n) => n !== 0).sort()).toEqual([1, 1, 1, 1]);
    });
  });

  describe("LIFELINE_RETRIEVAL_STRATEGY", () => {
    let userId = "";

    beforeAll(async () => {
      userId = await createUser(database.db, "Strategy");
      // Weighted puts "important" first (0.3·importance outweighs 0.6·similarity's 0.05 gap); hybrid
      // puts "closest" first (its relevance is by rank, and importance weighs only 0.1); "far" is
      // below the 0.3 threshold of both, and only nearest (no threshold) takes it.
      await insertMemories(database.db, [
        { userId, content: "closest", importance: 0.5, embedding: at(0.95), updatedAt: NOW },
        { userId, content: "important", importance: 0.8, embedding: at(0.9), updatedAt: NOW },
        { userId, content: "far", importance: 0.5, embedding: at(0.2), updatedAt: NOW },
      ]);
    });

    async function retrieveWith(env: Record<string, string>) {
      const { trace } = await assembleContext(database.db, {
        userId,
        message: QUESTION,
        history: [],
        mode: "conversational",
        memoryEnabled: true,
        embed,
        embeddingModel: TEST_EMBEDDER,
        now: NOW,
        countAccess: false,
        config: processAssemblyConfig(env),
      });
      const semantic = trace.candidates.filter((c) => c.branch === "semantic");
      return {
        strategy: trace.config.retrieval.strategy,
        order: semantic.filter((c) => c.fate !== "below_threshold").map((c) => c.content),
        below: semantic.filter((c) => c.fate === "below_threshold").map((c) => c.content),
      };
    }

    it("hybrid by default; weighted and nearest when set, each ranking differently", async () => {
      expect(await retrieveWith({})).toEqual({ strategy: "hybrid", order: ["closest", "important"], below: ["far"] });
      expect(await retrieveWith({ LIFELINE_RETRIEVAL_STRATEGY: "hybrid" })).toMatchObject({ strategy: "hybrid" });
      expect(await retrieveWith({ LIFELINE_RETRIEVAL_STRATEGY: "weighted" })).toEqual({
        strategy: "weighted",
        order: ["important", "closest"],
        below: ["far"],
      });
      expect(await retrieveWith({ LIFELINE_RETRIEVAL_STRATEGY: "nearest" })).toEqual({
        strategy: "nearest",
        order: ["closest", "important", "far"],
        below: [],
      });
    });

    it("a malformed setting is refused, naming the variable", () => {
      expect(() => processAssemblyConfig({ LIFELINE_RETRIEVAL_STRATEGY: "smart" })).toThrow(
        /LIFELINE_RETRIEVAL_STRATEGY must be one of nearest, weighted, hybrid/,
      );
    });
  });
});
