/**
 * An import whose conversations are not kept, on both databases: every exchange is still read, and
 * once the import is done or cancelled its conversations go; its memories stay and say where they
 * were said, its progress stays readable, and undo still removes exactly what it created.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { undoImport } from "@/db/queries/import-undo";
import { addImportBatch, changeImportState, createImport, getImportProgress, listImports } from "@/db/queries/imports";
import { insertMemory } from "@/db/queries/memories";
import { insertMemoryEvents } from "@/db/queries/memory-events";
import { getListedMemory } from "@/db/queries/memory-list";
import { conversations, memories, memoryEvents, memoryExtractions, messages } from "@/db/schema";
import { readExport } from "@/lib/import/read-export";
import { undoImportReembedding } from "@/lib/memory/store/undo-import";
import { embedOffline } from "@/lib/offline/embedder";
import { DB_KINDS } from "@/tests/db";
import { byId, createUser, memoryStatuses, OFFLINE_EMBEDDER_ID, startedImport, testDeps } from "@/tests/fixtures/jobs";
import { registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";
import { runImport } from "./import-job";
import type { JobSteps } from "./steps";

process.env.AUTH_SECRET ??= "import-test-secret-0123456789abcdef";

const exported = readExport(readFileSync(join(__dirname, "../import/fixtures/chatgpt-conversations.json")));
const steps: JobSteps = { runner: "in-process", run: (_id, fn) => fn(), retryAt: (_n, now) => now };

describe.each(DB_KINDS)("an import whose conversations are not kept, on %s", (kind) => {
  const context = useTestServer(kind);
  const db = () => context.database.db;

  const importBatch = (userId: string, keepConversations?: boolean) =>
    startedImport(db(), userId, exported.conversations, { keepConversations });

  const leftOf = async (userId: string) => ({
    conversations: await db().select().from(conversations).where(eq(conversations.userId, userId)),
    messages: await db().select().from(messages).where(eq(messages.userId, userId)),
    extractions: await db().select().from(memoryExtractions).where(eq(memoryExtractions.userId, userId)),
  });

  it("reads every exchange, then deletes the conversations; each memory says where and when it was said", async () => {
    const userId = await createUser(db());
    const importId = await importBatch(userId, false);
    // While it runs, its conversations are there to read.
    expect(await runImport(testDeps(db()), { importId }, steps, { pairsPerRun: 3 })).toMatchObject({
      status: "continue",
    });
    const [saidIn] = await db()
      .select({ createdAt: messages.createdAt, conversationId: messages.conversationId })
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.role, "user")))
      .orderBy(messages.createdAt)
      .limit(1);
    const [before] = await db()
      .select({ id: memories.id, source: memories.sourceUserMessageId, provenance: memories.provenance })
      .from(memories)
      .where(eq(memories.userId, userId))
      .orderBy(memories.createdAt)
      .limit(1);
    expect(before?.source).toBeTruthy();

    expect(await runImport(testDeps(db()), { importId }, steps)).toMatchObject({ status: "done", ran: 0 });
    expect(await leftOf(userId)).toEqual({ conversations: [], messages: [], extractions: [] });

    const stored = await db().select().from(memories).where(eq(memories.userId, userId));
    expect(stored.map((m) => m.content).join(" | ")).toMatch(/Lisbon/);
    const lisbon = stored.find((m) => m.content.includes("Lisbon"));
    expect(lisbon).toMatchObject({
      provenance: "user_stated",
      sourceConversationId: null,
      sourceUserMessageId: null,
      importedSource: {
        from: "chatgpt",
        conversationTitle: "Commuting by bike",
        saidAt: saidIn?.createdAt.toISOString(),
      },
    });
    expect(stored.every((m) => m.importedSource !== null)).toBe(true);
    expect(await getListedMemory(db(), { userId, memoryId: lisbon?.id ?? "" })).toMatchObject({
      sourceConversationTitle: null,
      importedSource: { conversationTitle: "Commuting by bike" },
    });

    // Its progress outlives its extractions.
    const progress = await getImportProgress(db(), { userId, importId });
    expect(progress).toMatchObject({
      status: "done",
      keepConversations: false,
      conversations: 2,
      exchanges: { total: 3, done: 3, failed: 0 },
      memoriesFound: stored.length,
      failures: [],
    });
    expect((await listImports(db(), { userId, limit: 10 }))[0]).toEqual(progress);
  });

  it("deletes the conversations of a cancelled import; the memories read before the cancel stay", async () => {
    const userId = await createUser(db());
    const importId = await importBatch(userId, false);
    await runImport(testDeps(db()), { importId }, steps, { pairsPerRun: 1 });
    const found = await db().select({ id: memories.id }).from(memories).where(eq(memories.userId, userId));
    expect(found.length).toBeGreaterThan(0);

    const cancelled = await changeImportState(db(), { userId, importId, action: "cancel", now: new Date() });
    expect(cancelled.status).toBe("cancelled");
    expect(await leftOf(userId)).toEqual({ conversations: [], messages: [], extractions: [] });
    expect(await runImport(testDeps(db()), { importId }, steps)).toMatchObject({ status: "not-running", ran: 0 });
    const kept = await db()
      .select({ id: memories.id, from: memories.importedSource })
      .from(memories)
      .where(eq(memories.userId, userId));
    expect(kept.map((m) => m.id).sort()).toEqual(found.map((m) => m.id).sort());
    expect(kept.every((m) => m.from?.from === "chatgpt")).toBe(true);
    expect(await getImportProgress(db(), { userId, importId })).toMatchObject({
      status: "cancelled",
      conversations: 2,
      exchanges: { total: 3, done: 1, failed: 0 },
      memoriesFound: found.length,
    });

    // Cancelled before it started: what was received goes too.
    const unstarted = await createImport(db(), {
      userId,
      source: "chatgpt",
      fileName: "b.zip",
      keepConversations: false,
    });
    await addImportBatch(db(), {
      userId,
      importId: unstarted.id,
      conversations: exported.conversations,
      runner: "in-process",
    });
    await changeImportState(db(), { userId, importId: unstarted.id, action: "cancel", now: new Date() });
    expect(await leftOf(userId)).toEqual({ conversations: [], messages: [], extractions: [] });
  });

  it("undoes an import not kept: exactly the memories it created go, one it superseded or updated is back as before it", async () => {
    const userId = await createUser(db());
    const importId = await importBatch(userId, false);
    await runImport(testDeps(db()), { importId }, steps, { pairsPerRun: 3 });
    const imported = await db().select().from(memories).where(eq(memories.userId, userId));
    expect(imported.length).toBeGreaterThan(0);
    const own = await insertMemory(db(), { userId, content: "Plays the cello", provenance: "user_created" });
    const older = await insertMemory(db(), {
      userId,
      content: "Lives in Porto",
      provenance: "user_created",
      status: "superseded",
      supersededById: imported[0]?.id,
    });
    const updated = await insertMemory(db(), {
      userId,
      content: "Rides a bike to work",
      provenance: "user_created",
      embedding: embedOffline("Rides a bike to work"),
      embeddingModel: OFFLINE_EMBEDDER_ID,
    });
    const [extraction] = await db()
      .select({ id: memoryExtractions.id })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, importId))
      .limit(1);
    // As consolidation records them, by the extraction that decided.
    await insertMemoryEvents(
      db(),
      [
        {
          memoryId: older.id,
          action: "supersede" as const,
          before: { status: "active" as const, supersededById: null },
          after: { status: "superseded" as const, supersededById: imported[0]?.id },
        },
        {
          memoryId: updated.id,
          action: "update" as const,
          before: { content: "Rides a bike" },
          after: { content: "Rides a bike to work" },
        },
      ].map((event) => ({ ...event, userId, actor: "extraction", extractionId: extraction?.id })),
    );
    expect(await runImport(testDeps(db()), { importId }, steps)).toMatchObject({ status: "done" });
    expect((await leftOf(userId)).extractions).toEqual([]);

    await expect(undoImport(db(), { userId: await createUser(db()), importId })).rejects.toMatchObject({
      code: "not_found:import",
    });
    const embedder = { model: OFFLINE_EMBEDDER_ID, embed: async (texts: string[]) => texts.map(embedOffline) };
    expect(await undoImportReembedding(db(), { userId, importId }, embedder)).toEqual({
      conversationsDeleted: 0,
      memoriesErased: imported.length,
      memoriesRestored: 2,
      memoriesKept: 0,
      kept: [],
    });
    expect(await memoryStatuses(db(), userId)).toEqual(
      byId([
        { id: own.id, status: "active" },
        { id: older.id, status: "active" },
        { id: updated.id, status: "active" },
      ]),
    );
    // The memory it updated has its words back, a vector of them, and no history of the import.
    const [back] = await db().select().from(memories).where(eq(memories.id, updated.id));
    expect(back?.content).toBe("Rides a bike");
    expect(back?.embedding?.map((x) => Math.f16round(x))).toEqual(
      embedOffline("Rides a bike").map((x) => Math.f16round(Math.fround(x))),
    );
    expect(await db().select().from(memoryEvents).where(eq(memoryEvents.memoryId, updated.id))).toEqual([]);
    await expect(getImportProgress(db(), { userId, importId })).rejects.toMatchObject({ code: "not_found:import" });
  });

  it("keeps the conversations by default, as archived chats the memories link to", async () => {
    const userId = await createUser(db());
    const importId = await importBatch(userId);
    expect(await runImport(testDeps(db()), { importId }, steps)).toMatchObject({ status: "done" });
    const left = await leftOf(userId);
    expect(left.conversations.map((c) => ({ archived: c.archived, importId: c.importId }))).toEqual([
      { archived: true, importId },
      { archived: true, importId },
    ]);
    expect(left.extractions).toHaveLength(3);
    const stored = await db().select().from(memories).where(eq(memories.userId, userId));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((m) => m.sourceConversationId !== null && m.importedSource === null)).toBe(true);
    expect(await getImportProgress(db(), { userId, importId })).toMatchObject({
      keepConversations: true,
      exchanges: { total: 3, done: 3 },
    });
  });

  it("takes keepConversations in the create request: a boolean, else a 400 that writes nothing", async () => {
    const owner = await registerAndSignIn(context.server.url, `import-keep-${kind}`);
    const bad = await owner.client.request("POST", "/api/imports", {
      json: { source: "chatgpt", fileName: "x.zip", keepConversations: "no" },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.json as { error: { fields: Record<string, string> } }).error.fields)).toEqual([
      "body.keepConversations",
    ]);
    expect((await owner.client.request("GET", "/api/imports")).json).toEqual({ imports: [] });
    const created = await owner.client.request("POST", "/api/imports", {
      json: { source: "chatgpt", fileName: "x.zip", keepConversations: false },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ import: { keepConversations: false } });
    const listed = await owner.client.request("GET", "/api/imports");
    expect(listed.json).toMatchObject({ imports: [{ keepConversations: false, status: "receiving" }] });
  });
});
