/**
 * Re-embedding after the embedder changes, on PGlite and Postgres: memories an "old" embedder made
 * are counted as waiting and never compared; after re-embedding with the offline embedder they are
 * found; a second run does nothing; an interrupted run resumes; an edit between the read and the
 * write is never overwritten.
 */

import { tmpdir } from "node:os";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { setDatabase } from "@/db/client";
import { updateMemory } from "@/db/queries/memories";
import { countAwaitingEmbedder } from "@/db/queries/reembed";
import { half } from "@/db/queries/vectors";
import { memories, memoryEvents } from "@/db/schema";
import { createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { assembleContext } from "@/lib/memory/retrieval/assemble";
import { reembedAfterEmbedderChange } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import { createUser, insertMemories, sparseVector } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { createUserMemory, editMemory, type MemoryEmbedder, memoryEmbeddingText } from "./memory-store";
import { type ReembedProgress, reembedMemories } from "./reembed";

/** The offline embedder, as the app configures it without an API key: the "new" embedder. */
const offline = createAiRegistry({}).embedder;
const NEW_MODEL = offline.model;

/** A small deterministic "old" embedder: one component per text, from a hash of it. */
const OLD_MODEL = "test/old-v0";
function oldVector(text: string): number[] {
  let h = 7;
  for (const char of text) h = (h * 31 + (char.codePointAt(0) ?? 0)) % 1499;
  return sparseVector({ [h]: 1, 1535: 0.25 });
}

/** An embedder that records the texts it was asked for, with an optional hook before it answers. */
function recording(
  base: MemoryEmbedder,
  before?: (texts: string[]) => Promise<void>,
): MemoryEmbedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    model: base.model,
    calls,
    async embed(texts) {
      calls.push(texts);
      await before?.(texts);
      return base.embed(texts);
    },
  };
}

const oldEmbedder: MemoryEmbedder = { model: OLD_MODEL, embed: async (texts) => texts.map(oldVector) };

const TEA = { title: "Tea", content: "Prefers green tea, never coffee" };
const QUESTION = "Which tea do I prefer?";

describe.each(DB_KINDS)("re-embedding on %s", (kind) => {
  const database = useTestDatabase(kind, { per: "test" });
  let ada = "";
  let bob = "";
  const ids: Record<string, string> = {};

  beforeEach(async () => {
    ada = await createUser(database.db, "Ada");
    bob = await createUser(database.db, "Bob");
    // Ada's active memories, embedded by the old embedder through the same path as the app.
    for (const [key, memory] of Object.entries({
      tea: TEA,
      lisbon: { title: null, content: "Planning a trip to Lisbon in May" },
      cat: { title: "Pet", content: "Has a cat called Miso" },
      walk: { title: null, content: "Walks to work every day" },
      book: { title: "Reading", content: "Is reading a novel about sailors" },
    })) {
      ids[key] = (await createUserMemory(database.db, { userId: ada, ...memory }, oldEmbedder)).id;
    }
    const old = (content: string) => ({ embedding: oldVector(content), embeddingModel: OLD_MODEL });
    [ids.deleted = "", ids.blank = "", ids.bob1 = "", ids.bob2 = ""] = await insertMemories(database.db, [
      { userId: ada, content: "Used to live in Porto", status: "deleted", ...old("Used to live in Porto") },
      // Nothing to embed: never waits, never touched.
      { userId: ada, content: "   ", title: null, ...old("   ") },
      { userId: bob, content: "Likes black tea", ...old("Likes black tea") },
      { userId: bob, content: "Plays the cello", status: "pending_confirmation", ...old("Plays the cello") },
    ]);
    // Already the new embedder's: never waits.
    ids.current = (await createUserMemory(database.db, { userId: ada, content: "Allergic to peanuts" }, offline)).id;
  });
  /** Waiting for the new embedder: Ada's 5 active + her deleted one + Bob's 2. */
  const WAITING = 8;

  const assemble = () =>
    assembleContext(database.db, {
      userId: ada,
      message: QUESTION,
      history: [],
      mode: "conversational",
      memoryEnabled: true,
      embed: async (text) => (await offline.embed([text]))[0] ?? [],
      embeddingModel: NEW_MODEL,
      countAccess: false,
    });

  const rows = () =>
    database.db
      .select({
        id: memories.id,
        content: memories.content,
        embeddingModel: memories.embeddingModel,
        embedding: memories.embedding,
        updatedAt: sql<string>`${memories.updatedAt}::text`,
        importance: memories.importance,
      })
      .from(memories)
      .orderBy(asc(memories.id));

  it("counts the old embedder's memories as waiting and compares none of them; after re-embedding they are found", async () => {
    const before = await assemble();
    expect(before.trace.status).toBe("ok");
    expect(before.trace.waitingForReembedding).toBe(5);
    const oldIds = [ids.tea, ids.lisbon, ids.cat, ids.walk, ids.book];
    expect(before.trace.candidates.filter((c) => oldIds.includes(c.memoryId))).toEqual([]);
    expect(await countAwaitingEmbedder(database.db, { model: NEW_MODEL, userId: ada, statuses: ["active"] })).toBe(5);
    expect(await countAwaitingEmbedder(database.db, { model: NEW_MODEL })).toBe(WAITING);

    const stored = await rows();
    const events = (await database.db.select().from(memoryEvents)).length;
    const progress: ReembedProgress[] = [];
    const result = await reembedMemories(database.db, offline, { batchSize: 3, onProgress: (p) => progress.push(p) });

    expect(result).toMatchObject({
      embedder: NEW_MODEL,
      total: WAITING,
      processed: WAITING,
      reembedded: WAITING,
      skipped: 0,
      failed: 0,
      batches: 3,
      aborted: false,
      errors: [],
    });
    expect(progress.map((p) => [p.batches, p.processed])).toEqual([
      [0, 0],
      [1, 3],
      [2, 6],
      [3, 8],
    ]);

    const after = await rows();
    for (const row of after) {
      const was = stored.find((s) => s.id === row.id);
      // Recency and history are the memory's: re-embedding changes neither.
      expect(row.updatedAt).toBe(was?.updatedAt);
      if (row.id === ids.blank) {
        expect(row).toEqual(was);
        continue;
      }
      expect(row.embeddingModel).toBe(NEW_MODEL);
      const [memory] = await database.db.select().from(memories).where(eq(memories.id, row.id));
      const [expected] = await offline.embed([memoryEmbeddingText(memory ?? { title: null, content: "" })]);
      expect(row.embedding?.map(half)).toEqual(expected?.map(half));
    }
    expect((await database.db.select().from(memoryEvents)).length).toBe(events);

    const found = await assemble();
    expect(found.trace.waitingForReembedding).toBe(0);
    expect(found.trace.candidates.find((c) => c.memoryId === ids.tea)).toMatchObject({ fate: "included" });
    expect(await countAwaitingEmbedder(database.db, { model: NEW_MODEL })).toBe(0);
  });

  it("does nothing the second time", async () => {
    await reembedMemories(database.db, offline);
    const before = await rows();
    const embedder = recording(offline);
    const again = await reembedMemories(database.db, embedder);
    expect(again).toMatchObject({ total: 0, processed: 0, reembedded: 0, batches: 0, aborted: false });
    expect(embedder.calls).toEqual([]);
    expect(await rows()).toEqual(before);
  });

  it("stops between batches when aborted, and the next run continues with what is left", async () => {
    const controller = new AbortController();
    const first = recording(offline);
    const stopped = await reembedMemories(database.db, first, {
      batchSize: 3,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.batches === 1) controller.abort();
      },
    });
    expect(stopped).toMatchObject({ total: WAITING, processed: 3, reembedded: 3, batches: 1, aborted: true });
    expect(await countAwaitingEmbedder(database.db, { model: NEW_MODEL })).toBe(WAITING - 3);

    const second = recording(offline);
    const resumed = await reembedMemories(database.db, second, { batchSize: 3 });
    expect(resumed).toMatchObject({ total: WAITING - 3, reembedded: WAITING - 3, aborted: false });
    // Nothing the first run did is embedded again.
    expect(second.calls.flat().filter((text) => first.calls.flat().includes(text))).toEqual([]);
    expect(await countAwaitingEmbedder(database.db, { model: NEW_MODEL })).toBe(0);
  });

  it("never overwrites an edit made between the read and the write", async () => {
    let edited = false;
    // While the first batch is being embedded: the user edits two of its memories — one through an
    // app still on the old embedder, one through an app on the new one — and changes the
    // importance of a third (which does not touch its text).
    const embedder = recording(offline, async () => {
      if (edited) return;
      edited = true;
      await editMemory(
        database.db,
        { userId: ada, memoryId: ids.tea ?? "", patch: { content: "Prefers jasmine tea" } },
        oldEmbedder,
      );
      await editMemory(
        database.db,
        { userId: ada, memoryId: ids.cat ?? "", patch: { content: "Has two cats" } },
        offline,
      );
      await updateMemory(database.db, { userId: ada, memoryId: ids.lisbon ?? "", patch: { importance: 0.9 } });
    });
    const result = await reembedMemories(database.db, embedder, { batchSize: 100 });
    expect(result).toMatchObject({ total: WAITING, reembedded: WAITING - 2, skipped: 2, failed: 0 });

    const byId = async (id: string | undefined) =>
      (
        await database.db
          .select()
          .from(memories)
          .where(eq(memories.id, id ?? ""))
      )[0];
    const tea = await byId(ids.tea);
    expect(tea).toMatchObject({ content: "Prefers jasmine tea", embeddingModel: OLD_MODEL });
    expect(tea?.embedding).toEqual(oldVector(memoryEmbeddingText({ title: "Tea", content: "Prefers jasmine tea" })));
    const cat = await byId(ids.cat);
    const [catVector] = await offline.embed([memoryEmbeddingText({ title: "Pet", content: "Has two cats" })]);
    expect(cat).toMatchObject({ content: "Has two cats", embeddingModel: NEW_MODEL });
    expect(cat?.embedding?.map(half)).toEqual(catVector?.map(half));
    expect(await byId(ids.lisbon)).toMatchObject({ importance: 0.9, embeddingModel: NEW_MODEL });

    // The memory edited through the old embedder still waits, and the next run embeds its new text.
    expect(await countAwaitingEmbedder(database.db, { model: NEW_MODEL })).toBe(1);
    const next = recording(offline);
    expect(await reembedMemories(database.db, next)).toMatchObject({ total: 1, reembedded: 1 });
    expect(next.calls).toEqual([["Tea: Prefers jasmine tea"]]);
  });

  it("leaves a text the embedder rejects waiting and goes on; an embedder that fails altogether stops the run", async () => {
    const picky: MemoryEmbedder = {
      model: NEW_MODEL,
      embed: async (texts) => {
        const vectors = await offline.embed(texts);
        return texts.map((text, i) => (text.includes("Lisbon") ? sparseVector({}) : (vectors[i] ?? [])));
      },
    };
    const result = await reembedMemories(database.db, picky, { batchSize: 4 });
    expect(result).toMatchObject({ total: WAITING, reembedded: WAITING - 1, failed: 1, aborted: false });
    expect(result.errors).toEqual([{ memoryId: ids.lisbon, message: expect.stringContaining("zero vector") }]);
    const stillWaiting = await database.db
      .select({ id: memories.id })
      .from(memories)
      .where(inArray(memories.embeddingModel, [OLD_MODEL]));
    expect(stillWaiting.map((row) => row.id).sort()).toEqual([ids.blank, ids.lisbon].sort());

    const down: MemoryEmbedder = {
      model: NEW_MODEL,
      embed: async () => {
        throw new Error("503 Service Unavailable");
      },
    };
    await expect(reembedMemories(database.db, down)).rejects.toThrow("503 Service Unavailable");
    expect(await countAwaitingEmbedder(database.db, { model: NEW_MODEL })).toBe(1);
  });

  it("runs at server start with the process's database and embedder, and finds nothing to do the next time", async () => {
    setDatabase(database);
    setAiRegistry(createAiRegistry({}));
    try {
      // An embedded database whose directory exists (a fresh install's has none: nothing to do).
      const env = { ...process.env, LIFELINE_DATA_DIR: tmpdir() };
      expect(await reembedAfterEmbedderChange(env)).toMatchObject({ total: WAITING, reembedded: WAITING, failed: 0 });
      expect(await reembedAfterEmbedderChange(env)).toMatchObject({ total: 0, batches: 0 });
    } finally {
      setDatabase(undefined);
      setAiRegistry(undefined);
    }
  });
});
