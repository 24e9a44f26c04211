/**
 * The real `reembed-memories` Inngest function, run step by step by @inngest/test's
 * InngestTestEngine against a real database (PGlite and Postgres) with the offline embedder; and
 * the server start's request for it (lib/runtime.ts requestReembedOnInngest) against a stand-in
 * Inngest event API.
 */
import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Db, setDatabase } from "@/db/client";
import { countAwaitingEmbedder } from "@/db/queries/reembed";
import { half } from "@/db/queries/vectors";
import { memories } from "@/db/schema";
import { createAiRegistry, setAiRegistry } from "@/lib/ai/registry";
import { createInngestClient } from "@/lib/jobs/inngest-client";
import { DEFAULT_REEMBED_BATCH_SIZE } from "@/lib/memory/store/reembed";
import { requestReembedOnInngest } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import { createUser, insertMemories, sparseVector } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { createReembedMemoriesFunction, MAX_REEMBED_BATCH_SIZE, reembedBatchSize } from "./reembed-memories";

const OLD_MODEL = "test/old-v0";
const offline = createAiRegistry({}).embedder;
const quiet = () => {};
const client = createInngestClient({ log: { info: quiet, warn: quiet, error: quiet, debug: quiet } });

function engine(db: Db) {
  return new InngestTestEngine({
    function: createReembedMemoriesFunction(async () => ({ db, embedder: offline }), client),
  });
}

const requested = (embedder: string) =>
  [{ name: "lifeline/memories.reembed-requested", data: { embedder } }] as [
    { name: string; data: Record<string, unknown> },
  ];

/** `count` memories of `userId` embedded by the old embedder, each with its own text. */
async function seedOld(db: Db, userId: string, count: number, label: string) {
  return insertMemories(
    db,
    Array.from({ length: count }, (_, i) => ({
      userId,
      content: `${label} keeps note ${i} about the garden`,
      embedding: sparseVector({ [i % 1500]: 1 }),
      embeddingModel: OLD_MODEL,
    })),
  );
}

describe("reembedBatchSize", () => {
  it("is 64 while few wait, and grows so that one run's steps cover everything, up to an API call's 2,048 inputs", () => {
    expect(reembedBatchSize(0)).toBe(DEFAULT_REEMBED_BATCH_SIZE);
    expect(reembedBatchSize(30_000)).toBe(DEFAULT_REEMBED_BATCH_SIZE);
    expect(reembedBatchSize(100_000)).toBe(201);
    expect(reembedBatchSize(50_000_000)).toBe(MAX_REEMBED_BATCH_SIZE);
  });
});

describe.each(DB_KINDS)("reembed-memories (Inngest) on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("re-embeds every waiting memory of every user, one step per batch, and then nothing waits", async () => {
    const { db } = database;
    const ada = await createUser(db, "Ada");
    const bo = await createUser(db, "Bo");
    await seedOld(db, ada, 100, "Ada");
    await seedOld(db, bo, 50, "Bo");
    const [current] = await insertMemories(db, [
      { userId: bo, content: "Already current", embedding: sparseVector({ 3: 1 }), embeddingModel: offline.model },
    ]);
    expect(await countAwaitingEmbedder(db, { model: offline.model })).toBe(150);

    const { result, ctx } = await engine(db).execute({ events: requested(offline.model) });
    expect(result).toEqual({
      status: "done",
      embedder: offline.model,
      waiting: 150,
      batchSize: 64,
      batches: 3,
      reembedded: 150,
      skipped: 0,
      failed: 0,
    });
    const stepIds = (ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map(([id]) => id);
    expect(stepIds).toEqual(["count", "batch-0", "batch-1", "batch-2"]);
    expect(await countAwaitingEmbedder(db, { model: offline.model })).toBe(0);
    // Each vector is the offline embedder's for that memory's text; the current one is untouched.
    const [sample] = await db.select().from(memories).where(eq(memories.userId, ada)).limit(1);
    expect(sample?.embeddingModel).toBe(offline.model);
    const [expected] = await offline.embed([sample?.content ?? ""]);
    const stored = sample?.embedding ?? [];
    expect(stored).toHaveLength(expected?.length ?? -1);
    // Stored in half precision (halfvec): equal to the embedder's vector rounded to half.
    expect(Math.max(...stored.map((value, i) => Math.abs(value - half(expected?.[i] ?? Number.NaN))))).toBeLessThan(
      1e-6,
    );
    const [kept] = await db
      .select()
      .from(memories)
      .where(eq(memories.id, current ?? ""));
    expect(kept?.embedding?.[3]).toBe(1);

    const again = await engine(db).execute({ events: requested(offline.model) });
    expect(again.result).toMatchObject({ status: "done", waiting: 0, batches: 0, reembedded: 0 });
  });

  it("an event for another embedder than the configured one changes nothing", async () => {
    const { db } = database;
    const cy = await createUser(db, "Cy");
    await seedOld(db, cy, 5, "Cy");
    const waiting = await countAwaitingEmbedder(db, { model: offline.model });
    const { result } = await engine(db).execute({ events: requested("openai/text-embedding-3-small") });
    expect(result).toEqual({
      status: "not-configured",
      embedder: "openai/text-embedding-3-small",
      configured: offline.model,
    });
    expect(await countAwaitingEmbedder(db, { model: offline.model })).toBe(waiting);
  });

  it("a server start with Inngest requests the job when memories wait, and sends nothing when none do", async () => {
    const { db } = database;
    setDatabase(database);
    setAiRegistry(createAiRegistry({}));
    process.env.INNGEST_EVENT_KEY = "test-key";
    try {
      // The event key is read when the client is made: after it is set, as on a server.
      const sent: unknown[] = [];
      const inngestApi = createInngestClient({
        fetch: async (_url, init) => {
          sent.push(...(JSON.parse(String(init?.body)) as unknown[]));
          return Response.json({ ids: ["01J"], status: 200 });
        },
      });
      const dee = await createUser(db, "Dee");
      await seedOld(db, dee, 3, "Dee");
      const waiting = await countAwaitingEmbedder(db, { model: offline.model });
      expect(waiting).toBeGreaterThanOrEqual(3);
      expect(await requestReembedOnInngest(inngestApi)).toBe(waiting);
      expect(sent).toEqual([
        expect.objectContaining({ name: "lifeline/memories.reembed-requested", data: { embedder: offline.model } }),
      ]);

      await engine(db).execute({ events: requested(offline.model) });
      expect(await requestReembedOnInngest(inngestApi)).toBe(0);
      expect(sent).toHaveLength(1);
    } finally {
      delete process.env.INNGEST_EVENT_KEY;
      setDatabase(undefined);
      setAiRegistry(undefined);
    }
  });
});
