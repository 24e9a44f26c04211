import { inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { usageColumns } from "@/db/queries/memory-usage";
import { memories } from "@/db/schema";
import { UNMATCHED_MEMORIES_HEADING } from "@/lib/offline/prompt-readers";
import { createTestDatabase, DB_KINDS } from "@/tests/db";
import { createConversation, createUser, insertMemories, sparseVector, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { type AssembleInput, assembleContext, previewContext } from "./assemble";

const NOW = new Date("2025-06-15T12:00:00.000Z");
const TEA_QUESTION = "What tea do I like, and what is left to plan for Lisbon?";

/** A deterministic embedder: every message the tests send has a fixed vector. */
const embed = async (text: string) => {
  if (text === TEA_QUESTION) return sparseVector({ 0: 1 });
  throw new Error(`no fixture embedding for ${JSON.stringify(text)}`);
};

describe.each(DB_KINDS)("assembleContext on %s", (kind) => {
  const database = useTestDatabase(kind);
  let ada = "";
  let bob = "";
  let conversationId = "";
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const { db } = database;
    ada = await createUser(db, "Ada");
    bob = await createUser(db, "Bob");
    conversationId = await createConversation(db, ada);
    const fromConversation = { sourceConversationId: conversationId };
    // Similarity to the query is 10/√(100 + k²) for a vector (10, k): 0.995, 0.958, 0.928 … 0.781.
    const rows = {
      lisbon: { ...fromConversation, content: "Planning a trip to Lisbon in May", importance: 0.8, k: 3 },
      tea: { title: "Tea", content: "Prefers green tea", importance: 0.6, k: 1 },
      f4: { content: "Walks to work", importance: 0.5, k: 4 },
      f5: { content: "Learning Portuguese", importance: 0.5, k: 5 },
      f6: { content: "Has a cat called Miso", importance: 0.5, k: 6 },
      f7: { ...fromConversation, content: "Wants a window seat", importance: 0.5, k: 7 },
      f8: { content: "Dislikes early flights", importance: 0.5, k: 8 },
    };
    const inserted = await insertMemories(
      db,
      Object.values(rows).map(({ k, ...row }, i) => ({
        userId: ada,
        embedding: sparseVector({ 0: 10, 1: k }),
        createdAt: new Date(NOW.getTime() - (i + 10) * 3_600_000),
        updatedAt: NOW,
        ...row,
      })),
    );
    Object.keys(rows).forEach((key, i) => {
      ids[key] = inserted[i] ?? "";
    });
    [ids.budget = "", ids.bobTea = ""] = await insertMemories(db, [
      // Orthogonal to the query: only the conversation branch can bring it in.
      {
        userId: ada,
        ...fromConversation,
        content: "Trip budget is 1500 euros",
        importance: 0.5,
        embedding: sparseVector({ 1: 1 }),
        createdAt: NOW,
        updatedAt: NOW,
      },
      // Another user's memory, exactly on the query and as important as can be.
      { userId: bob, content: "Likes black tea", importance: 1, embedding: sparseVector({ 0: 1 }), updatedAt: NOW },
    ]);
  });
  const adaInput = (): AssembleInput => ({
    userId: ada,
    userName: "Ada",
    conversationId,
    message: TEA_QUESTION,
    history: [
      { id: "h1", role: "user", content: "I'm off to Lisbon in May." },
      { id: "h2", role: "assistant", content: "How exciting! Want help planning?" },
    ],
    mode: "productivity",
    memoryEnabled: true,
    embed,
    embeddingModel: TEST_EMBEDDER,
    now: NOW,
  });

  const accessCounts = async () => {
    const rows = await database.db
      .select({ id: memories.id, accessCount: usageColumns.accessCount, updatedAt: memories.updatedAt })
      .from(memories)
      .where(inArray(memories.id, Object.values(ids)));
    return Object.fromEntries(
      Object.entries(ids).map(([key, id]) => [key, rows.find((row) => row.id === id)?.accessCount]),
    );
  };

  it("previews without writing anything", async () => {
    const { trace } = await previewContext(database.db, adaInput());
    expect(trace.status).toBe("ok");
    expect(trace.countAccess).toBe(false);
    expect(Object.values(await accessCounts()).every((count) => count === 0)).toBe(true);
  });

  it("merges both branches, dedups, formats, and traces every candidate's fate", async () => {
    const { messages, trace } = await assembleContext(database.db, adaInput());

    expect(trace).toMatchObject({
      status: "ok",
      error: null,
      semantic: { aboveThreshold: 7, listed: 7, selected: 5 },
      conversation: { conversationId, returned: 3 },
    });
    const name = Object.fromEntries(Object.entries(ids).map(([key, id]) => [id, key]));
    expect(trace.candidates.map((c) => [c.branch, name[c.memoryId], c.rank, c.fate, c.selectedBy])).toEqual([
      ["semantic", "lisbon", 1, "included", ["semantic", "conversation"]],
      ["semantic", "tea", 2, "included", ["semantic"]],
      ["semantic", "f4", 3, "included", ["semantic"]],
      ["semantic", "f5", 4, "included", ["semantic"]],
      ["semantic", "f6", 5, "included", ["semantic"]],
      ["semantic", "f7", 6, "dropped_limit", ["conversation"]],
      ["semantic", "f8", 7, "dropped_limit", []],
      ["conversation", "lisbon", 1, "dropped_dedup", ["semantic", "conversation"]],
      ["conversation", "budget", 2, "included", ["conversation"]],
      ["conversation", "f7", 3, "included", ["conversation"]],
      // The near-miss: orthogonal to the question, so below the threshold; listed last.
      ["semantic", "budget", 1, "below_threshold", ["conversation"]],
    ]);
    const budget = trace.candidates.find((c) => c.memoryId === ids.budget);
    expect(budget).toMatchObject({ similarity: null, score: null, line: "• Trip budget is 1500 euros" });
    expect(trace.candidates.find((c) => c.branch === "conversation" && c.memoryId === ids.f7)?.similarity).toBe(
      trace.candidates.find((c) => c.branch === "semantic" && c.memoryId === ids.f7)?.similarity,
    );

    // Formatter order: importance desc, then newest first.
    expect(trace.memoryLines).toEqual([
      "• Planning a trip to Lisbon in May",
      "• Tea: Prefers green tea",
      "• Trip budget is 1500 euros",
      "• Walks to work",
      "• Learning Portuguese",
      "• Has a cat called Miso",
      "• Wants a window seat",
    ]);
    // The lines only the conversation branch chose come last, under their own heading: they were not matched to the message.
    const onlyConversation = ["• Trip budget is 1500 euros", "• Wants a window seat"];
    expect(messages[0]?.content).toContain(
      [
        "## What you remember about Ada",
        ...trace.memoryLines.filter((line) => !onlyConversation.includes(line)),
        UNMATCHED_MEMORIES_HEADING,
        ...onlyConversation,
      ].join("\n"),
    );
    expect(messages.slice(1)).toEqual([
      { role: "user", content: "I'm off to Lisbon in May." },
      { role: "assistant", content: "How exciting! Want help planning?" },
      { role: "user", content: TEA_QUESTION },
    ]);
    expect(trace.timings.embedMs).toBeGreaterThanOrEqual(0);
    expect(trace.timings.semanticSqlMs).toBeGreaterThan(0);
    expect(trace.timings.conversationSqlMs).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(trace))).toEqual(trace);

    // Every memory in the prompt is counted once, whichever branches chose it (lisbon: two).
    expect(await accessCounts()).toEqual({
      lisbon: 1,
      tea: 1,
      f4: 1,
      f5: 1,
      f6: 1,
      f7: 1,
      f8: 0,
      budget: 1,
      bobTea: 0,
    });
  });

  it("never returns another user's memory", async () => {
    const forBob = await assembleContext(database.db, {
      ...adaInput(),
      userId: bob,
      userName: "Bob",
      conversationId: null,
    });
    expect(forBob.trace.candidates.map((c) => c.memoryId)).toEqual([ids.bobTea]);
    expect(forBob.trace.memoryLines).toEqual(["• Likes black tea"]);

    // Ada asking inside her own conversation never sees Bob's memory, though it is the nearest.
    const forAda = await previewContext(database.db, adaInput());
    expect(forAda.trace.candidates.map((c) => c.memoryId)).not.toContain(ids.bobTea);
    // Bob naming Ada's conversation gets nothing from it.
    const intrusion = await previewContext(database.db, { ...adaInput(), userId: bob });
    expect(intrusion.trace.candidates.map((c) => c.memoryId)).toEqual([ids.bobTea]);
  });

  it("a closed database: status failed with the error, and the chat goes on without memories", async () => {
    const closed = await createTestDatabase(kind);
    await closed.close();
    const { messages, trace } = await assembleContext(closed.db, { ...adaInput(), conversationId: null });
    expect(trace.status).toBe("failed");
    expect(trace.failedStage).toBe("semantic");
    expect(trace.error).toBeTruthy();
    expect(trace.error).not.toContain("Failed query");
    expect(trace.candidates).toEqual([]);
    expect(messages[0]?.content).not.toContain("What you remember");
    expect(messages.at(-1)).toEqual({ role: "user", content: TEA_QUESTION });
  });
});
