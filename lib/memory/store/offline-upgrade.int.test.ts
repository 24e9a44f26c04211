/**
 * Upgrading an existing database from an old offline embedder to the new default
 * (offline/wordvec-glove-v3), on PGlite and Postgres: the server start re-embeds every memory the
 * old one made, loses none, and retrieval reports the ones still waiting until it is done — then
 * recalls by meaning, with no word in common. The old one is the previous default,
 * offline/wordvec-glove-v2 (an upgrade from an older one runs the same code: only the stored
 * embedder id differs, and scripts/reembed.int.test.ts covers other ids).
 */
import { tmpdir } from "node:os";
import { asc } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setDatabase } from "@/db/client";
import { memories } from "@/db/schema";
import { createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { assembleContext } from "@/lib/memory/retrieval/assemble";
import { reembedAfterEmbedderChange } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import { createUser } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { createUserMemory, type MemoryEmbedder } from "./memory-store";
import { reembedMemories } from "./reembed";

const OLD = createAiRegistry({ LIFELINE_EMBEDDING_MODEL: "wordvec-glove-v2" }).embedder;
const NEW = createAiRegistry({}).embedder;

const ADA = [
  { title: "Food allergy", content: "Is allergic to peanuts" },
  { title: "Pet", content: "Has a cat called Miso" },
  { title: "Home", content: "Lives in Lisbon" },
  { title: "Work", content: "Works as a nurse on night shifts" },
  { title: "Music", content: "Plays the cello in an amateur orchestra" },
  { title: "Trip", content: "Planning a trip to Japan in April" },
  { title: "Reading", content: "Is reading a novel about sailors" },
];
const BOB = [
  { title: "Drink", content: "Likes black tea" },
  { title: "Sport", content: "Runs marathons" },
];
const TOTAL = ADA.length + BOB.length;

describe.each(DB_KINDS)("upgrading the offline embedder on %s", (kind) => {
  const database = useTestDatabase(kind, { per: "test" });
  let ada = "";

  beforeEach(async () => {
    ada = await createUser(database.db, "Ada");
    const bob = await createUser(database.db, "Bob");
    // A database as the previous version left it: every memory embedded by wordvec-glove-v2.
    for (const memory of ADA) await createUserMemory(database.db, { userId: ada, ...memory }, OLD);
    for (const memory of BOB) await createUserMemory(database.db, { userId: bob, ...memory }, OLD);
  });
  afterEach(async () => {
    setDatabase(undefined);
    setAiRegistry(undefined);
  });

  const ask = (message: string, embedder: MemoryEmbedder = NEW) =>
    assembleContext(database.db, {
      userId: ada,
      message,
      history: [],
      mode: "conversational",
      memoryEnabled: true,
      embed: async (text) => (await embedder.embed([text]))[0] ?? [],
      embeddingModel: embedder.model,
      countAccess: false,
    });
  const snapshot = () =>
    database.db
      .select({ id: memories.id, content: memories.content, status: memories.status, model: memories.embeddingModel })
      .from(memories)
      .orderBy(asc(memories.id));

  it("re-embeds every memory at start, losing none, and reports the waiting ones until it is done", async () => {
    expect([OLD.model, NEW.model]).toEqual(["offline/wordvec-glove-v2", "offline/wordvec-glove-v3"]);
    const before = await snapshot();
    expect(before.map((m) => m.model)).toEqual(new Array(TOTAL).fill("offline/wordvec-glove-v2"));
    const allergy = before.find((m) => m.content === "Is allergic to peanuts")?.id;

    // Before: the new embedder compares nothing and says why.
    const waiting = await ask("What should I avoid eating?");
    expect(waiting.trace.waitingForReembedding).toBe(ADA.length);
    expect(waiting.trace.candidates).toEqual([]);

    // Part way (one batch of 4 written, then stopped): the rest still waits.
    const stop = new AbortController();
    await reembedMemories(database.db, NEW, {
      batchSize: 4,
      onProgress: (p) => p.batches === 1 && stop.abort(),
      signal: stop.signal,
    });
    const partWay = (await ask("What should I avoid eating?")).trace.waitingForReembedding;
    expect(partWay).toBeGreaterThan(0);
    expect(partWay).toBeLessThan(ADA.length);

    // The server start finishes the job with the process's database and the default registry.
    setDatabase(database);
    setAiRegistry(createAiRegistry({}));
    const env = { ...process.env, LIFELINE_DATA_DIR: tmpdir() };
    expect(await reembedAfterEmbedderChange(env)).toMatchObject({ reembedded: TOTAL - 4, failed: 0, aborted: false });
    expect(await reembedAfterEmbedderChange(env)).toMatchObject({ total: 0, batches: 0 });

    const after = await snapshot();
    expect(after.map(({ id, content, status }) => ({ id, content, status }))).toEqual(
      before.map(({ id, content, status }) => ({ id, content, status })),
    );
    expect(after.map((m) => m.model)).toEqual(new Array(TOTAL).fill("offline/wordvec-glove-v3"));

    // Done: nothing waits, and the meaning is found — among the two nearest by vector, with no word in common.
    const done = await ask("What should I avoid eating?");
    expect(done.trace.waitingForReembedding).toBe(0);
    const found = done.trace.candidates.find((c) => c.memoryId === allergy);
    expect(found).toMatchObject({ fate: "included", textRank: null });
    expect(found?.vectorRank).toBeLessThanOrEqual(2);
  });
});
