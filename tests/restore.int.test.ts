/**
 * Restoring a Lifeline export over real HTTP on both databases: what user A exported, read by the
 * browser's own reader (lib/import/lifeline.ts), restores into user B as A's active memories — same
 * words, types, pins, history — re-embedded, dated as the export says and marked as restored; the
 * same file again adds nothing; a bad batch writes nothing; A's rows are never touched.
 */
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS, importConfig } from "@/core/config";
import { insertMemory } from "@/db/queries/memories";
import { insertMemoryEvents, snapshotOf } from "@/db/queries/memory-events";
import { memories, memoryEvents } from "@/db/schema";
import { packRestoreBatches, parseLifelineExport } from "@/lib/import/lifeline";
import { DB_KINDS } from "./db";
import { type HttpClient, registerAndSignIn } from "./http-client";
import { useTestServer } from "./test-server";

process.env.AUTH_SECRET ??= "restore-test-secret-0123456789abcdef";

type Memory = typeof memories.$inferSelect;

describe.each(DB_KINDS)("restoring a Lifeline export on %s", (kind) => {
  const context = useTestServer(kind);
  const db = () => context.database.db;

  const rowsOf = (userId: string) =>
    db().select().from(memories).where(eq(memories.userId, userId)).orderBy(asc(memories.content));
  const historyOf = (memoryId: string) =>
    db().select().from(memoryEvents).where(eq(memoryEvents.memoryId, memoryId)).orderBy(asc(memoryEvents.createdAt));

  async function post(client: HttpClient, path: string, json: unknown) {
    const response = await client.request("POST", path, { json });
    return { status: response.status, body: response.json as Record<string, unknown> };
  }

  /** A's memories: one edited and pinned, one plain, one deleted, one the assistant suggested (waiting). */
  async function seedA(name: string) {
    const a = await registerAndSignIn(context.server.url, name);
    const created = async (json: unknown) => {
      const response = await a.client.request("POST", "/api/memories", { json });
      expect(response.status).toBe(201);
      return (response.json as { memory: { id: string } }).memory.id;
    };
    const tea = await created({ content: "Likes green tea", type: "preference", tags: ["drinks"] });
    expect(
      (await a.client.request("PATCH", `/api/memories/${tea}`, { json: { content: "Likes green tea, no sugar" } }))
        .status,
    ).toBe(200);
    expect((await a.client.request("PATCH", `/api/memories/${tea}`, { json: { pinned: true } })).status).toBe(200);
    await created({ content: "Works as a nurse in Porto", type: "personal" });
    const gone = await created({ content: "Owns a red bike", type: "fact" });
    expect((await a.client.request("DELETE", `/api/memories/${gone}`)).status).toBeLessThan(300);
    const pending = await insertMemory(db(), {
      userId: a.id,
      content: "Plans a trip to Japan in May",
      type: "goal",
      provenance: "assistant_suggested",
      status: "pending_confirmation",
    });
    await insertMemoryEvents(db(), [
      {
        userId: a.id,
        memoryId: pending.id,
        action: "create",
        actor: "extraction",
        before: null,
        after: snapshotOf(pending),
      },
    ]);
    const exported = await a.client.request("GET", "/api/memories/export");
    expect(exported.status).toBe(200);
    return { a, file: JSON.parse(exported.text) as unknown };
  }

  const essence = (row: Memory) => [row.content, row.type, row.pinned, row.status, row.provenance];

  it("restores A's active and waiting memories into B, with their history and dates, once", async () => {
    const { a, file } = await seedA(`restore-a-${kind}`);
    const b = await registerAndSignIn(context.server.url, `restore-b-${kind}`);
    const parsed = parseLifelineExport(file);
    expect(parsed.skipped).toEqual([{ reason: "deleted", count: 1 }]);
    const batches = packRestoreBatches(parsed.memories, {
      maxBytes: importConfig.maxBatchBytes - 1024,
      maxMemories: importConfig.maxRestoreMemories,
    });
    const aBefore = await rowsOf(a.id);

    expect(await post(b.client, "/api/imports/restore/preview", { memories: batches[0] })).toEqual({
      status: 200,
      body: { wouldRestore: 3, alreadyPresent: 0 },
    });
    expect(await rowsOf(b.id)).toEqual([]);
    expect(await post(b.client, "/api/imports/restore", { memories: batches[0] })).toEqual({
      status: 200,
      body: { restored: 3, alreadyPresent: 0 },
    });

    const embedder = aBefore.find((row) => row.embeddingModel)?.embeddingModel;
    expect(embedder).toBeTruthy();
    const aRows = aBefore.filter((row) => row.status === "active" || row.status === "pending_confirmation");
    const bRows = await rowsOf(b.id);
    expect(bRows.map(essence)).toEqual(aRows.map(essence));
    expect(bRows.find((row) => row.status === "pending_confirmation")?.provenance).toBe("assistant_suggested");
    for (const [i, row] of bRows.entries()) {
      const original = aRows[i];
      if (!original) throw new Error("no original");
      expect(row.id).not.toBe(original.id);
      expect(row.createdAt).toEqual(original.createdAt);
      expect(row.updatedAt).toEqual(original.updatedAt);
      expect(row.restoredAt).toBeInstanceOf(Date);
      expect(row.restoredFromId).toBe(original.id);
      // Embedded here, even the one A never embedded (inserted without a vector above).
      expect(row.embedding).toHaveLength(EMBEDDING_DIMENSIONS);
      expect(row.embeddingModel).toBe(embedder);
      expect(row.sourceConversationId).toBeNull();
      const [ours, theirs] = await Promise.all([historyOf(row.id), historyOf(original.id)]);
      expect(ours.map((e) => [e.action, e.actor, e.createdAt.toISOString()])).toEqual(
        theirs.map((e) => [e.action, e.actor, e.createdAt.toISOString()]),
      );
      expect(ours.every((e) => e.userId === b.id)).toBe(true);
    }
    expect((await historyOf(bRows.find((r) => r.pinned)?.id ?? "")).length).toBe(3);
    // The memory is findable by meaning: its vector was computed here.
    const search = await b.client.request("GET", "/api/memories?q=nurse&match=semantic");
    expect((search.json as { memories: { content: string }[] }).memories[0]?.content).toBe("Works as a nurse in Porto");

    // The same file again adds nothing; A's rows are as they were.
    expect(await post(b.client, "/api/imports/restore", { memories: batches[0] })).toEqual({
      status: 200,
      body: { restored: 0, alreadyPresent: 3 },
    });
    expect(await post(b.client, "/api/imports/restore/preview", { memories: batches[0] })).toEqual({
      status: 200,
      body: { wouldRestore: 0, alreadyPresent: 3 },
    });
    expect(await rowsOf(b.id)).toHaveLength(3);
    expect(await rowsOf(a.id)).toEqual(aBefore);
    // Deleted after the restore, a memory is still known by its key (export id + content hash): not brought back.
    const nurse = bRows.find((row) => row.content.includes("nurse"))?.id ?? "";
    expect((await b.client.request("DELETE", `/api/memories/${nurse}`)).status).toBeLessThan(300);
    expect(await post(b.client, "/api/imports/restore", { memories: batches[0] })).toEqual({
      status: 200,
      body: { restored: 0, alreadyPresent: 3 },
    });
    // Restored into the account it came from, each memory is already there by its words.
    expect(await post(a.client, "/api/imports/restore", { memories: batches[0] })).toEqual({
      status: 200,
      body: { restored: 0, alreadyPresent: 3 },
    });
    expect(await rowsOf(a.id)).toEqual(aBefore);
  });

  it("answers a bad batch with a 400 naming the field and writes nothing of it", async () => {
    const { file } = await seedA(`restore-bad-a-${kind}`);
    const c = await registerAndSignIn(context.server.url, `restore-bad-c-${kind}`);
    const [good] = parseLifelineExport(file).memories;
    if (!good) throw new Error("no memory");
    const cases: [unknown, string][] = [
      [{ memories: [good, { ...good, sourceId: "x", type: "secret" }] }, "body.memories.1.type"],
      [{ memories: [good, { ...good, sourceId: "y", status: "deleted" }] }, "body.memories.1.status"],
      [{ memories: [good, { ...good, sourceId: "z", embedding: [0.1] }] }, "body.memories.1"],
      [
        { memories: [good, { ...good, history: [{ ...good.history[0], createdAt: "soon" }] }] },
        "body.memories.1.history.0.createdAt",
      ],
      [{ memories: [good, { ...good }] }, "body.memories"],
      [{ memories: [] }, "body.memories"],
    ];
    for (const [json, field] of cases) {
      const response = await c.client.request("POST", "/api/imports/restore", { json });
      expect(response.status, field).toBe(400);
      const fields = (response.json as { error: { fields: Record<string, string> } }).error.fields;
      expect(
        Object.keys(fields).some((key) => key.startsWith(field)),
        `${field} in ${Object.keys(fields)}`,
      ).toBe(true);
    }
    expect(await rowsOf(c.id)).toEqual([]);
    const signedOut = await fetch(`${context.server.url}/api/imports/restore`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ memories: [good] }),
    });
    expect(signedOut.status).toBe(401);
  });
});
