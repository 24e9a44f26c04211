/**
 * Consolidation's near-memory search (db/queries/memories.ts findNearMemories) on both databases:
 * vector neighbours unioned with memories that share words with the candidate (search_vector),
 * owner-scoped, active/pending only, same embedder, one limit. And the case it exists for: "I'm not
 * a teacher anymore" supersedes "Works as a teacher", 0.20 apart for the offline embedder.
 */
import { describe, expect, it } from "vitest";
import { consolidationConfig } from "@/core/config";
import { findNearMemories, insertMemory } from "@/db/queries/memories";
import type { MemoryStatus } from "@/db/schema";
import { cosineSimilarity as storedSimilarity } from "@/lib/memory/retrieval/score";
import { memoryEmbeddingText } from "@/lib/memory/store/memory-store";
import { cosineSimilarity, embedOffline } from "@/lib/offline/embedder";
import { extractMemoriesOffline } from "@/lib/offline/extractor";
import { offlineLanguageModel } from "@/lib/offline/model";
import { DB_KINDS } from "@/tests/db";
import { createUser, OFFLINE_EMBEDDER_ID } from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";
import { planConsolidation } from "./consolidate";
import type { ExtractedMemory } from "./extract";

const textOf = (title: string, content: string) => memoryEmbeddingText({ title, content });

describe.each(DB_KINDS)("near memories for consolidation on %s", (kind) => {
  const database = useTestDatabase(kind);

  async function store(
    userId: string,
    title: string,
    content: string,
    options: { status?: MemoryStatus; embeddingModel?: string } = {},
  ): Promise<string> {
    const row = await insertMemory(database.db, {
      userId,
      title,
      content,
      type: "personal",
      embedding: embedOffline(textOf(title, content)),
      embeddingModel: options.embeddingModel ?? OFFLINE_EMBEDDER_ID,
      provenance: options.status === "pending_confirmation" ? "assistant_suggested" : "user_stated",
      status: options.status ?? "active",
    });
    return row.id;
  }

  const near = (
    userId: string,
    title: string,
    content: string,
    overrides: { minSimilarity?: number; limit?: number; text?: string } = {},
  ) =>
    findNearMemories(database.db, {
      userId,
      embedding: embedOffline(textOf(title, content)),
      embeddingModel: OFFLINE_EMBEDDER_ID,
      text: overrides.text ?? textOf(title, content),
      minSimilarity: overrides.minSimilarity ?? consolidationConfig.nearSimilarity,
      limit: overrides.limit ?? consolidationConfig.nearLimit,
    });

  it("finds a stored memory that shares a key word although its embedding is far, owner-scoped, active or pending only", async () => {
    const ada = await createUser(database.db, "Ada");
    const bob = await createUser(database.db, "Bob");
    const teacher = await store(ada, "Occupation", "Works as a teacher");
    const pending = await store(ada, "Teaching", "Teacher at the night school", { status: "pending_confirmation" });
    await store(ada, "Home", "Lives in Lisbon");
    await store(ada, "Occupation", "Works as a teacher in Porto", { status: "superseded" });
    await store(ada, "Occupation", "Works as a substitute teacher", { status: "deleted" });
    await store(ada, "Occupation", "Works as a teacher", { embeddingModel: "other/embedder" });
    await store(bob, "Occupation", "Works as a teacher");

    // The case: the offline embedder puts them 0.20 apart, far below the threshold.
    const similarity = cosineSimilarity(
      embedOffline(textOf("Self-description", "Is no longer a teacher")),
      embedOffline(textOf("Occupation", "Works as a teacher")),
    );
    expect(similarity).toBeLessThan(consolidationConfig.nearSimilarity);

    const found = await near(ada, "Self-description", "Is no longer a teacher");
    expect(found.map((m) => [m.id, m.foundBy])).toEqual(
      expect.arrayContaining([
        [teacher, "text"],
        [pending, "text"],
      ]),
    );
    expect(found).toHaveLength(2);
    expect(found.find((m) => m.id === teacher)).toMatchObject({ content: "Works as a teacher", status: "active" });
    // As stored (half precision): the similarity of the rounded vectors.
    const stored = storedSimilarity(
      embedOffline(textOf("Self-description", "Is no longer a teacher")),
      embedOffline(textOf("Occupation", "Works as a teacher")),
    );
    expect(found.find((m) => m.id === teacher)?.similarity).toBeCloseTo(stored, 5);
    // Most similar first.
    expect([...found].sort((a, b) => b.similarity - a.similarity)).toEqual(found);
  });

  it("keeps the vector neighbours (found both ways when they also share words), and matches no stop words", async () => {
    const ada = await createUser(database.db, "Ada");
    const lisbon = await store(ada, "Home", "Lives in Lisbon");
    await store(ada, "Drink preference", "Likes coffee");

    expect((await near(ada, "Home", "Lives in Porto")).map((m) => [m.id, m.foundBy])).toEqual([[lisbon, "both"]]);
    // Vector only: nothing to match by text.
    expect((await near(ada, "Home", "Lives in Porto", { text: "" })).map((m) => [m.id, m.foundBy])).toEqual([
      [lisbon, "vector"],
    ]);
    // Stop words are not key words: they match nothing.
    expect(await near(ada, "Pet", "Has a cat named Mochi", { text: "is a the of in", minSimilarity: 0.99 })).toEqual(
      [],
    );
  });

  it("ranks text matches by the rarity of the shared words and shares one limit with the vector neighbours", async () => {
    const ada = await createUser(database.db, "Ada");
    const chess = await store(ada, "Games", "Plays chess online");
    const hobbies = new Map<string, string>();
    for (const hobby of ["painting", "hiking", "jazz", "pottery"])
      hobbies.set(hobby, await store(ada, "Hobby", `Likes ${hobby}`));

    // Text only (no vector neighbour at 0.99): "chess" (in one memory) outranks "hobby"/"likes" (in four).
    const byText = await near(ada, "Hobby", "Likes chess tournaments", { minSimilarity: 0.99, limit: 2 });
    expect(byText).toHaveLength(2);
    expect(byText.map((m) => m.id)).toContain(chess);
    expect(byText.every((m) => m.foundBy === "text")).toBe(true);

    // Every memory a vector neighbour (threshold −1): the limit is shared, and the best text match
    // keeps a place next to the best vector neighbour although its vector rank is last.
    const all = await near(ada, "Hobby", "Likes chess tournaments", { minSimilarity: -1, limit: 2 });
    // Offline similarities to the candidate: painting 0.65 (the best), chess 0.20 (the worst).
    expect(all.map((m) => [m.id, m.foundBy])).toEqual([
      [hobbies.get("painting"), "both"],
      [chess, "both"],
    ]);
  });

  it("lets consolidation supersede 'Works as a teacher' with 'Is no longer a teacher' (offline model)", async () => {
    const ada = await createUser(database.db, "Ada");
    const teacher = await store(ada, "Occupation", "Works as a teacher");
    const [candidate] = extractMemoriesOffline({
      currentDate: "2026-11-30",
      userMessage: "I'm not a teacher anymore.",
    }).memories;
    if (!candidate) throw new Error("no candidate");
    const extracted: ExtractedMemory = { ...candidate, provenance: "user_stated", status: "active" };
    const [decision] = await planConsolidation(
      {
        db: database.db,
        model: offlineLanguageModel,
        embed: async (texts) => texts.map(embedOffline),
        embeddingModel: OFFLINE_EMBEDDER_ID,
      },
      { userId: ada, candidates: [extracted], embeddings: [embedOffline(memoryEmbeddingText(extracted))] },
    );
    expect(decision).toMatchObject({ action: "supersede", targetId: teacher, decidedBy: "model" });
    expect(decision?.near).toEqual([expect.objectContaining({ id: teacher, foundBy: "text" })]);
  });
});
