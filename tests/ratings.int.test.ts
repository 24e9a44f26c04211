/**
 * Thumbs up / down on answers over real HTTP, on PGlite and Postgres: the rating is stored with the
 * answer, comes back with the transcript and the debug view, is listed with its filter, and only
 * its owner sees or changes it; an imported answer takes neither a rating nor a note. (Malformed bodies and
 * foreign ids: the security matrix.)
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "@/db/client";
import { savePromptDebug } from "@/db/queries/prompt-debug";
import { listRatedAnswers } from "@/db/queries/ratings";
import { answerRatings, conversations, messageNotes, messages } from "@/db/schema";
import { createConversation, createPair } from "@/tests/fixtures/jobs";
import { createTestDatabase, DB_KINDS } from "./db";
import { type HttpClient, registerAndSignIn } from "./http-client";
import { startTestServer, type TestServer } from "./http-server";

process.env.AUTH_SECRET = "ratings-test-secret-0123456789abcdef";

describe.each(DB_KINDS)("answer ratings on %s", (kind) => {
  let database: Database;
  let db: Db;
  let server: TestServer;
  let ada: { id: string; client: HttpClient };
  let bob: { id: string; client: HttpClient };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.db;
    server = await startTestServer({ database });
    ada = await registerAndSignIn(server.url, "ada");
    bob = await registerAndSignIn(server.url, "bob");
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  async function answered(question = "What should I cook?", answer = "A lentil curry.") {
    const conversationId = await createConversation(db, ada.id);
    const pair = await createPair(db, { userId: ada.id, conversationId }, question, answer);
    await savePromptDebug(db, {
      userId: ada.id,
      conversationId,
      messageId: pair.assistantMessageId,
      modelInput: [{ type: "stream", params: { prompt: [] } }],
      trace: null,
      provider: "offline",
      modelId: "lifeline-offline-1",
      mode: "conversational",
      retrievalStatus: "disabled",
    });
    return pair;
  }
  const ratingPath = (id: string) => `/api/messages/${id}/rating`;
  const storedRatings = (messageId: string) =>
    db.select().from(answerRatings).where(eq(answerRatings.messageId, messageId));

  it("rates, re-rates with a reason, and shows the rating in the transcript and the debug view", async () => {
    const pair = await answered();
    expect((await ada.client.request("GET", ratingPath(pair.assistantMessageId))).json).toEqual({ rating: null });

    const up = await ada.client.request("PUT", ratingPath(pair.assistantMessageId), { json: { rating: "up" } });
    expect(up.status).toBe(200);
    expect(up.json).toMatchObject({ rating: { messageId: pair.assistantMessageId, rating: "up", reason: null } });

    const down = await ada.client.request("PUT", ratingPath(pair.assistantMessageId), {
      json: { rating: "down", reason: "  It forgot I am vegetarian.  " },
    });
    expect(down.json).toMatchObject({ rating: { rating: "down", reason: "It forgot I am vegetarian." } });
    expect(await storedRatings(pair.assistantMessageId)).toHaveLength(1);

    const transcript = await ada.client.request("GET", `/api/conversations/${pair.conversationId}/messages`);
    const items = (transcript.json as { messages: { id: string; rating: unknown }[] }).messages;
    expect(items.find((m) => m.id === pair.assistantMessageId)?.rating).toEqual({
      rating: "down",
      reason: "It forgot I am vegetarian.",
    });
    expect(items.find((m) => m.id === pair.userMessageId)?.rating).toBeNull();

    const debug = await ada.client.request("GET", `/api/messages/${pair.assistantMessageId}/debug`);
    expect(debug.status).toBe(200);
    expect(debug.json).toMatchObject({
      debug: { rating: { rating: "down", reason: "It forgot I am vegetarian." } },
    });
  });

  it("takes a rating back with DELETE, and a second DELETE is still 204", async () => {
    const pair = await answered();
    await ada.client.request("PUT", ratingPath(pair.assistantMessageId), { json: { rating: "up" } });
    expect((await ada.client.request("DELETE", ratingPath(pair.assistantMessageId))).status).toBe(204);
    expect(await storedRatings(pair.assistantMessageId)).toEqual([]);
    expect((await ada.client.request("DELETE", ratingPath(pair.assistantMessageId))).status).toBe(204);
  });

  it("refuses to rate a question (400) or an answer still streaming (409), storing nothing", async () => {
    const pair = await answered();
    const question = await ada.client.request("PUT", ratingPath(pair.userMessageId), { json: { rating: "up" } });
    expect(question.status).toBe(400);
    expect(question.json).toMatchObject({
      error: { code: "bad_request", fields: { "params.id": expect.any(String) } },
    });
    expect(await storedRatings(pair.userMessageId)).toEqual([]);

    await db.update(messages).set({ status: "streaming" }).where(eq(messages.id, pair.assistantMessageId));
    const streaming = await ada.client.request("PUT", ratingPath(pair.assistantMessageId), { json: { rating: "up" } });
    expect(streaming.status).toBe(409);
    expect(await storedRatings(pair.assistantMessageId)).toEqual([]);
  });

  it("an imported answer (written by another assistant) takes no rating and no note: 409, nothing stored", async () => {
    const pair = await answered();
    await db.update(conversations).set({ importedFrom: "chatgpt" }).where(eq(conversations.id, pair.conversationId));
    for (const messageId of [pair.assistantMessageId, pair.userMessageId]) {
      const note = await ada.client.request("POST", `/api/messages/${messageId}/notes`, { json: { content: "Hm" } });
      expect(note.status, note.text).toBe(409);
      expect(note.json).toMatchObject({ error: { code: "conflict:imported_conversation" } });
    }
    const rated = await ada.client.request("PUT", ratingPath(pair.assistantMessageId), { json: { rating: "up" } });
    expect(rated.status, rated.text).toBe(409);
    expect(rated.json).toMatchObject({
      error: { code: "conflict:imported_conversation", message: expect.stringMatching(/imported/i) },
    });
    expect(await storedRatings(pair.assistantMessageId)).toEqual([]);
    expect(await db.select().from(messageNotes).where(eq(messageNotes.userId, ada.id))).toEqual([]);
    // Reading still works: there is nothing to read.
    expect((await ada.client.request("GET", ratingPath(pair.assistantMessageId))).json).toEqual({ rating: null });
  });

  it("another user's answer is not found, and their rating request changes nothing", async () => {
    const pair = await answered();
    await ada.client.request("PUT", ratingPath(pair.assistantMessageId), { json: { rating: "up", reason: "Mine" } });
    for (const method of ["GET", "PUT", "DELETE"] as const) {
      const res = await bob.client.request(method, ratingPath(pair.assistantMessageId), {
        json: method === "PUT" ? { rating: "down" } : undefined,
      });
      expect(res.status, method).toBe(404);
      expect(res.json).toMatchObject({ error: { code: "not_found:message" } });
    }
    expect(await storedRatings(pair.assistantMessageId)).toMatchObject([{ rating: "up", reason: "Mine" }]);
    expect(await listRatedAnswers(db, { userId: bob.id })).toEqual([]);
  });

  it("lists rated answers newest rating first, each with the question it answered, filtered by thumb, and forgets them with their chat", async () => {
    const carol = await registerAndSignIn(server.url, "carol");
    const conversationId = await createConversation(db, carol.id);
    const first = await createPair(db, { userId: carol.id, conversationId }, "Q1", "**Bold** answer one");
    const second = await createPair(db, { userId: carol.id, conversationId }, "Q2", "Answer two");
    const third = await createPair(db, { userId: carol.id, conversationId }, "Q3", "Answer three");
    for (const [pair, rating] of [
      [first, "down"],
      [second, "up"],
      [third, "down"],
    ] as const) {
      const res = await carol.client.request("PUT", ratingPath(pair.assistantMessageId), { json: { rating } });
      expect(res.status).toBe(200);
    }
    const all = await listRatedAnswers(db, { userId: carol.id });
    expect(all.map((a) => a.messageId)).toEqual([
      third.assistantMessageId,
      second.assistantMessageId,
      first.assistantMessageId,
    ]);
    expect(all[2]).toMatchObject({ conversationId, question: "Q1", excerpt: "**Bold** answer one", rating: "down" });
    expect(all.map((a) => a.question)).toEqual(["Q3", "Q2", "Q1"]);
    const bad = await listRatedAnswers(db, { userId: carol.id, rating: "down" });
    expect(bad.map((a) => a.messageId)).toEqual([third.assistantMessageId, first.assistantMessageId]);

    await db.delete(conversations).where(eq(conversations.id, conversationId));
    expect(await listRatedAnswers(db, { userId: carol.id })).toEqual([]);
  });
});
