/**
 * The memory and extraction routes over real HTTP (tests/http-server.ts), signed in through the
 * real Auth.js flow, on PGlite and Postgres. Extraction runs in-process with the offline models,
 * as in the embedded default.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { thresholdFor } from "@/core/config";
import { createExtraction } from "@/db/queries/extractions";
import { half } from "@/db/queries/vectors";
import { memories, memoryEvents, memoryExtractions } from "@/db/schema";
import { enqueueExtraction } from "@/lib/jobs/extraction-queue";
import { memoryEmbeddingText } from "@/lib/memory/store/memory-store";
import { embedWordVec } from "@/lib/offline/wordvec-embedder";
import { getInProcessRunner, processDispatcher } from "@/lib/runtime";
import { createConversation, createPair } from "@/tests/fixtures/jobs";
import { DB_KINDS } from "./db";
import { type HttpClient, registerAndSignIn } from "./http-client";
import { startTestServer, type TestServer } from "./http-server";
import { useTestDatabase } from "./test-database";

process.env.AUTH_SECRET = "memory-api-test-secret-0123456789abcdef";

type Json = Record<string, unknown>;

const distance = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length ? Math.max(...a.map((x, i) => Math.abs(x - (b[i] ?? 0)))) : Number.POSITIVE_INFINITY;

describe.each(DB_KINDS)("memory and extraction routes on %s", (kind) => {
  const database = useTestDatabase(kind);
  let server: TestServer;
  let ada: { id: string; client: HttpClient };
  let bob: { id: string; client: HttpClient };

  beforeAll(async () => {
    server = await startTestServer({ database });
    ada = await registerAndSignIn(server.url, "ada");
    bob = await registerAndSignIn(server.url, "bob");
  });
  afterAll(async () => {
    await getInProcessRunner().idle();
    await server?.close();
  });

  /** An exchange of ada's, extracted in-process like after a chat answer. */
  async function exchange(userText: string, assistantText = "Noted.") {
    const conversationId = await createConversation(database.db, ada.id);
    const pair = await createPair(database.db, { userId: ada.id, conversationId }, userText, assistantText);
    const { extractionId } = await enqueueExtraction(
      database.db,
      { ...pair, memoryEnabled: true },
      processDispatcher(),
    );
    await getInProcessRunner().idle();
    return { ...pair, extractionId };
  }
  const memoryRow = async (id: string) => {
    const [row] = await database.db.select().from(memories).where(eq(memories.id, id));
    if (!row) throw new Error("memory row vanished");
    return row;
  };
  const eventsOf = (id: string) =>
    database.db.select().from(memoryEvents).where(eq(memoryEvents.memoryId, id)).orderBy(asc(memoryEvents.createdAt));
  const snapshot = async () => ({
    memories: await database.db.select().from(memories).orderBy(asc(memories.id)),
    events: await database.db.select().from(memoryEvents).orderBy(asc(memoryEvents.id)),
    extractions: await database.db.select().from(memoryExtractions).orderBy(asc(memoryExtractions.id)),
  });

  describe("GET /api/memories search", () => {
    it("by meaning: ranked by relevance, nothing under the threshold, the rest counted as hidden", async () => {
      const carol = await registerAndSignIn(server.url, "carol");
      const contents = ["Is vegetarian", "Prefers green tea", "Lives in Berlin", "Plays the violin in an orchestra"];
      for (const content of contents) {
        expect((await carol.client.request("POST", "/api/memories", { json: { content } })).status).toBe(201);
      }
      type Page = { memories: { content: string; similarity: number }[]; total: number; hidden: number };
      const search = async (query: string) =>
        (await carol.client.request("GET", `/api/memories?${query}`)).json as Page;

      const found = await search("q=vegetarian%20dinner&match=semantic");
      const threshold = thresholdFor("offline/hash-ngram-v1");
      expect(found.memories[0]?.content).toBe("Is vegetarian");
      const similarities = found.memories.map((m) => m.similarity);
      expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
      expect(Math.min(...similarities)).toBeGreaterThanOrEqual(threshold);
      expect(found.hidden).toBeGreaterThan(0);
      expect(found.total + found.hidden).toBe(contents.length);
      // Another order, asked for, is kept; the threshold still applies.
      const byRecent = await search("q=vegetarian%20dinner&match=semantic&sort=recent");
      expect(byRecent.total).toBe(found.total);
      expect(byRecent.hidden).toBe(found.hidden);
      // A search by words hides nothing.
      expect((await search("q=tea")).hidden).toBe(0);
    });

    it("by meaning: the threshold is the strategy in force's, and a memory it cannot compare is never a match", async () => {
      const dave = await registerAndSignIn(server.url, "dave");
      const ids: string[] = [];
      for (const content of ["Is vegetarian", "Prefers green tea", "Lives in Berlin", "Plays the violin"]) {
        const res = await dave.client.request("POST", "/api/memories", { json: { content } });
        ids.push(((res.json as Json).memory as Json).id as string);
      }
      // A zero vector (its cosine distance is NaN, which Postgres sorts above every number and lets
      // pass `>=`) and a vector of another embedder (an unrelated space) compare with nothing.
      const [zero, foreign] = ids.slice(2);
      await database.db
        .update(memories)
        .set({ embedding: new Array(1536).fill(0) })
        .where(eq(memories.id, zero as string));
      await database.db
        .update(memories)
        .set({ embeddingModel: "another/embedder" })
        .where(eq(memories.id, foreign as string));
      type Page = { memories: { content: string }[]; total: number; hidden: number };
      const search = async () =>
        (await dave.client.request("GET", "/api/memories?q=vegetarian%20dinner&match=semantic")).json as Page;

      // "nearest" has no threshold: every comparable memory is a match, nothing is hidden.
      process.env.LIFELINE_RETRIEVAL_STRATEGY = "nearest";
      try {
        const found = await search();
        expect(found.memories.map((m) => m.content).sort()).toEqual(["Is vegetarian", "Prefers green tea"]);
        expect(found.hidden).toBe(0);
      } finally {
        delete process.env.LIFELINE_RETRIEVAL_STRATEGY;
      }
      expect((await search()).memories.map((m) => m.content)).not.toContain("Lives in Berlin");
    });
  });

  describe("GET /api/messages/:id/extraction", () => {
    it("shows the owner the extraction of the pair the assistant message answers", async () => {
      const pair = await exchange("I prefer green tea", "Green tea it is.");
      const res = await ada.client.request("GET", `/api/messages/${pair.assistantMessageId}/extraction`);

      expect(res.status).toBe(200);
      const { extraction } = res.json as { extraction: Json };
      expect(extraction).toMatchObject({
        id: pair.extractionId,
        status: "succeeded",
        attempts: 1,
        maxAttempts: 5,
        retrying: false,
        lastError: null,
        runner: "in-process",
        memories: [{ content: "Prefers green tea", status: "active", provenance: "user_stated" }],
        decisions: [{ action: "add", candidate: { content: "Prefers green tea", provenance: "user_stated" } }],
      });
      // What the extraction model received: one call (nothing near to consolidate against), as the row stores it.
      const [row] = await database.db
        .select({ modelInput: memoryExtractions.modelInput })
        .from(memoryExtractions)
        .where(eq(memoryExtractions.id, pair.extractionId));
      const { modelInput } = extraction as { modelInput: { type: string; provider: string; params: unknown }[] };
      expect(modelInput).toEqual(row?.modelInput);
      expect(modelInput).toMatchObject([
        { type: "generate", params: { providerOptions: { lifeline: { task: "memory_extraction" } } } },
      ]);
      expect(JSON.stringify(modelInput[0]?.params)).toContain("<user_message>\\nI prefer green tea\\n</user_message>");
    });

    it("is 404 for another user's message, for a user message and for an unknown id; 400 for a malformed one", async () => {
      const pair = await exchange("I live in Oslo");
      for (const [client, id] of [
        [bob.client, pair.assistantMessageId],
        [ada.client, pair.userMessageId],
        [ada.client, crypto.randomUUID()],
      ] as const) {
        const res = await client.request("GET", `/api/messages/${id}/extraction`);
        expect(res.status).toBe(404);
        expect(res.json).toMatchObject({ error: { code: "not_found:message" } });
      }
      expect((await ada.client.request("GET", "/api/messages/not-a-uuid/extraction")).status).toBe(400);
    });
  });

  describe("POST /api/messages/:id/extraction/retry", () => {
    it("re-runs a failed extraction; anything not failed is 409; another user's is 404 and changes nothing", async () => {
      const conversationId = await createConversation(database.db, ada.id);
      const pair = await createPair(database.db, { userId: ada.id, conversationId }, "My dog's name is Rex", "Hi Rex!");
      const { extraction } = await createExtraction(database.db, { ...pair, status: "queued", runner: "in-process" });
      await database.db
        .update(memoryExtractions)
        .set({ status: "failed", attempts: 5, lastError: "extract: timeout" })
        .where(eq(memoryExtractions.id, extraction.id));

      const before = await snapshot();
      const foreign = await bob.client.request("POST", `/api/messages/${pair.assistantMessageId}/extraction/retry`);
      expect(foreign.status).toBe(404);
      expect(await snapshot()).toEqual(before);

      const res = await ada.client.request("POST", `/api/messages/${pair.assistantMessageId}/extraction/retry`);
      expect(res.status).toBe(202);
      expect((res.json as { extraction: Json }).extraction).toMatchObject({
        status: "queued",
        attempts: 0,
        retrying: true,
      });
      await getInProcessRunner().idle();

      const after = await ada.client.request("GET", `/api/messages/${pair.assistantMessageId}/extraction`);
      expect((after.json as { extraction: Json }).extraction).toMatchObject({
        status: "succeeded",
        lastError: null,
        memories: [{ content: "Dog's name is Rex" }],
      });
      const again = await ada.client.request("POST", `/api/messages/${pair.assistantMessageId}/extraction/retry`);
      expect(again.status).toBe(409);
      expect(again.json).toMatchObject({ error: { code: "conflict:extraction_not_failed" } });
    });
  });

  describe("GET /api/memories/export?format=text", () => {
    it("hands out the user's active memories as plain text, grouped by type; nothing waiting for confirmation, nothing of another user's", async () => {
      const carol = await registerAndSignIn(server.url, "carol");
      for (const json of [
        { content: "Prefers window seats on trains.", type: "preference" },
        { content: "Lives in Porto.", type: "personal" },
        { content: "Was thinking of moving to Oslo.", type: "personal" },
      ]) {
        expect((await carol.client.request("POST", "/api/memories", { json })).status).toBe(201);
      }
      await database.db
        .update(memories)
        .set({ status: "pending_confirmation" })
        .where(and(eq(memories.userId, carol.id), eq(memories.content, "Was thinking of moving to Oslo.")));
      await ada.client.request("POST", "/api/memories", { json: { content: "Ada's own secret.", type: "fact" } });

      const res = await carol.client.request("GET", "/api/memories/export?format=text");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("x-memory-count")).toBe("2");
      expect(res.text).toMatch(
        /^What my assistant Lifeline remembers about me \(2 memories, as of \d{4}-\d{2}-\d{2}\)/,
      );
      expect(res.text).toContain("About me:\n- Lives in Porto.\n");
      expect(res.text).toContain("My preferences:\n- Prefers window seats on trains.\n");
      expect(res.text).not.toContain("Oslo");
      expect(res.text).not.toContain("Ada");

      const none = await (await registerAndSignIn(server.url, "dan")).client.request(
        "GET",
        "/api/memories/export?format=text",
      );
      expect(none).toMatchObject({ status: 200, text: "" });
      expect(none.headers.get("x-memory-count")).toBe("0");
    });
  });

  describe("/api/memories/:id", () => {
    it("PATCH edits, re-embeds a new text, sets edited_at and records the user's update", async () => {
      const pair = await exchange("My favorite color is green");
      const [memory] = await database.db
        .select()
        .from(memories)
        .where(eq(memories.sourceAssistantMessageId, pair.assistantMessageId));
      if (!memory) throw new Error("no memory extracted");

      const res = await ada.client.request("PATCH", `/api/memories/${memory.id}`, {
        json: { content: "Favorite color is teal", tags: ["colors", "style"], importance: 0.8 },
      });

      expect(res.status).toBe(200);
      const { memory: edited } = res.json as { memory: Json };
      expect(edited).toMatchObject({ content: "Favorite color is teal", tags: ["colors", "style"], importance: 0.8 });
      expect(edited).not.toHaveProperty("embedding");
      const row = await memoryRow(memory.id);
      expect(row.editedAt).toBeInstanceOf(Date);
      // memories.embedding is a halfvec: the stored vector is the new text's embedding in half precision, rounded as
      // pgvector rounds it (through single precision: `half`).
      const expected = embedWordVec(
        memoryEmbeddingText({ title: memory.title, content: "Favorite color is teal" }),
      ).map(half);
      expect(distance(row.embedding ?? [], expected)).toBeLessThan(1e-6);
      // Another text's vector: far apart as a whole (a dense embedder's components are each small, so not by max).
      const apart = Math.hypot(...(memory.embedding ?? []).map((x, i) => x - (expected[i] ?? 0)));
      expect(apart).toBeGreaterThan(0.1);
      const events = await eventsOf(memory.id);
      expect(events.map((e) => [e.action, e.actor])).toEqual([
        ["create", "extraction"],
        ["update", "user"],
      ]);
      expect(events[1]).toMatchObject({
        before: { content: "Favorite color is green" },
        after: { content: "Favorite color is teal", importance: 0.8 },
      });

      const pinned = await ada.client.request("PATCH", `/api/memories/${memory.id}`, { json: { pinned: true } });
      expect(pinned.status).toBe(200);
      expect((await memoryRow(memory.id)).embedding).toEqual(row.embedding); // no new text, no new embedding

      const history = await ada.client.request("GET", `/api/memories/${memory.id}/history`);
      expect((history.json as { events: Json[] }).events.map((e) => e.action)).toEqual(["update", "update", "create"]);
    });

    it("PATCH rejects an empty, unknown or out-of-range change with 400, and another user's memory with 404", async () => {
      const pair = await exchange("I live in Bergen");
      const [memory] = await database.db
        .select()
        .from(memories)
        .where(eq(memories.sourceAssistantMessageId, pair.assistantMessageId));
      if (!memory) throw new Error("no memory extracted");
      const before = await snapshot();

      for (const [json, field] of [
        [{}, "body"],
        [{ status: "active" }, "body.status"],
        [{ importance: 2 }, "body.importance"],
        [{ content: "   " }, "body.content"],
        [{ type: "relationship" }, "body.type"],
        [{ tags: ["a", "a"] }, "body.tags"],
      ] as const) {
        const res = await ada.client.request("PATCH", `/api/memories/${memory.id}`, { json });
        expect(res.status).toBe(400);
        expect((res.json as { error: { fields: Json } }).error.fields).toHaveProperty([field]);
      }
      const foreign = await bob.client.request("PATCH", `/api/memories/${memory.id}`, {
        json: { content: "Lives in Hell" },
      });
      expect(foreign.status).toBe(404);
      expect(foreign.json).toMatchObject({ error: { code: "not_found:memory" } });
      for (const [method, path] of [
        ["DELETE", ""],
        ["POST", "/restore"],
        ["POST", "/confirm"],
        ["POST", "/discard"],
        ["GET", "/history"],
      ] as const) {
        expect((await bob.client.request(method, `/api/memories/${memory.id}${path}`)).status).toBe(404);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("DELETE marks deleted (undoable); a deleted memory cannot be edited; restore brings it back", async () => {
      const pair = await exchange("I work at Acme");
      const [memory] = await database.db
        .select()
        .from(memories)
        .where(eq(memories.sourceAssistantMessageId, pair.assistantMessageId));
      if (!memory) throw new Error("no memory extracted");
      const path = `/api/memories/${memory.id}`;

      const deleted = await ada.client.request("DELETE", path);
      expect(deleted.status).toBe(200);
      expect(deleted.json).toMatchObject({ memory: { id: memory.id, status: "deleted" } });
      expect((await ada.client.request("DELETE", path)).status).toBe(200); // idempotent, no second event
      const edit = await ada.client.request("PATCH", path, { json: { content: "Works at Initech" } });
      expect(edit.status).toBe(409);
      expect(edit.json).toMatchObject({ error: { code: "conflict:memory_deleted" } });

      const restored = await ada.client.request("POST", `${path}/restore`);
      expect(restored.json).toMatchObject({ memory: { status: "active" } });
      expect((await ada.client.request("POST", `${path}/restore`)).json).toMatchObject({
        error: { code: "conflict:memory_not_deleted" },
      });
      expect((await eventsOf(memory.id)).map((e) => e.action)).toEqual(["create", "delete", "restore"]);
    });

    it("confirm activates a pending suggestion, discard drops one (restorable as a suggestion); others are 409", async () => {
      const conversationId = await createConversation(database.db, ada.id);
      const suggestion = (content: string) => ({
        userId: ada.id,
        content,
        provenance: "assistant_suggested" as const,
        status: "pending_confirmation" as const,
        sourceConversationId: conversationId,
        evidence: [{ role: "assistant" as const, quote: content }],
      });
      const [kept, dropped] = await database.db
        .insert(memories)
        .values([suggestion("Might enjoy jazz"), suggestion("Might enjoy opera")])
        .returning({ id: memories.id });
      if (!kept || !dropped) throw new Error("no suggestions inserted");

      expect((await ada.client.request("POST", `/api/memories/${kept.id}/confirm`)).json).toMatchObject({
        memory: { status: "active", provenance: "assistant_suggested" },
      });
      expect((await ada.client.request("POST", `/api/memories/${kept.id}/confirm`)).status).toBe(409);
      expect((await ada.client.request("POST", `/api/memories/${kept.id}/discard`)).json).toMatchObject({
        error: { code: "conflict:memory_not_pending" },
      });

      expect((await ada.client.request("POST", `/api/memories/${dropped.id}/discard`)).json).toMatchObject({
        memory: { status: "deleted" },
      });
      expect((await ada.client.request("POST", `/api/memories/${dropped.id}/restore`)).json).toMatchObject({
        memory: { status: "pending_confirmation" },
      });
      const history = await ada.client.request("GET", `/api/memories/${dropped.id}/history`);
      expect((history.json as { events: Json[] }).events).toMatchObject([
        { action: "restore", actor: "user", before: { status: "deleted" }, after: { status: "pending_confirmation" } },
        { action: "discard", actor: "user", before: { status: "pending_confirmation" }, after: { status: "deleted" } },
      ]);
      const [confirmEvent] = await database.db
        .select()
        .from(memoryEvents)
        .where(and(eq(memoryEvents.memoryId, kept.id), eq(memoryEvents.action, "confirm")));
      expect(confirmEvent).toMatchObject({ actor: "user", after: { status: "active" } });
    });
  });
});
