/**
 * "Delete means gone" (docs/retrieval.md#deleting-a-memory, docs/security.md › Privacy), and "Undo
 * undoes": inside the undo window every derived record keeps a deleted memory's text and an undo
 * finds them as they were; once the window closes (or at once: delete now, delete all) no route
 * returns its text from a record derived from it
 * (debug records, captured model input, extraction decisions, transcripts), over real HTTP with
 * the offline models, on PGlite, Postgres, and Postgres through PgBouncer in transaction mode (every
 * query of a chat turn, its extraction and the redaction through a pooler). The conversation itself (messages, titles) is the
 * user's to delete separately and is left out of the search; a single delete keeps the memory in
 * the trash (its own row and history) so that undo works.
 */
import { tmpdir } from "node:os";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { deletionConfig } from "@/core/config";
import { DELETED_MEMORY, DELETED_MEMORY_LINE, REDACTED_REASON } from "@/core/deleted-memory";
import { type Db, selectRows } from "@/db/client";
import { completeExtraction, createExtraction } from "@/db/queries/extractions";
import { deleteMemory, insertMemory } from "@/db/queries/memories";
import { deleteAllMemories } from "@/db/queries/memory-list";
import { getPromptDebug, savePromptDebug } from "@/db/queries/prompt-debug";
import { redactDeletedMemories, redactDueDeletions } from "@/db/queries/redaction";
import { conversations, memories, memoryEvents, memoryExtractions, messages, promptDebug } from "@/db/schema";
import { type CapturedCall, withCapture } from "@/lib/ai/capture";
import { setAiRegistry } from "@/lib/ai/registry";
import { getDebugPageData } from "@/lib/chat/debug-view";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import { askModel } from "@/lib/memory/extraction/consolidate";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { offlineLanguageModel } from "@/lib/offline/model";
import { getInProcessRunner, processSweeps } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createPair } from "@/tests/fixtures/jobs";
import { type HttpClient, registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";

process.env.AUTH_SECRET ??= "privacy-delete-test-secret-0123456789abcdef";
process.env.LIFELINE_CHAT_RATE_LIMIT = "off";
process.env.LIFELINE_OFFLINE_DELAY_MS = "0";

/** The distinctive words of the two memories (made-up, so they occur nowhere else). */
const GAME = "Zorblaxia";
const PARROT = "Quillnestor";

type Json = unknown;
interface Sample {
  where: string;
  json: Json;
}

/**
 * Every string of `json` (with its path) that contains `secret` outside the `allowed` texts (an extraction call's
 * prompt quotes the conversation's messages).
 */
function leaks(sample: Sample, secret: string, allowed: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const outsideAllowed = (value: string) => {
    let rest = value;
    for (const text of allowed) {
      for (const quoted of [text, text.trim()]) if (quoted) rest = rest.split(quoted).join("");
    }
    return rest.includes(secret);
  };
  const walk = (value: Json, path: string) => {
    if (typeof value === "string") {
      if (value.includes(secret) && !allowed.has(value) && outsideAllowed(value)) {
        found.push(`${sample.where} ${path}: ${value}`);
      }
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, `${path}[${index}]`);
    } else if (value && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes(secret)) found.push(`${sample.where} ${path} key ${key}`);
        walk(item, `${path}.${key}`);
      }
    }
  };
  walk(sample.json, "");
  return found;
}

describe.each([...DB_KINDS, "pgbouncer"] as const)("deleting memories redacts their text everywhere on %s", (kind) => {
  const context = useTestServer(kind);
  const db = (): Db => context.database.db;
  afterEach(async () => {
    await afterResponseIdle();
    await getInProcessRunner().idle();
    setAiRegistry(undefined);
  });

  async function waitFor<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const value = await read();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  /** One chat turn over HTTP with the offline model, settled: answer, debug record, extraction. */
  async function chat(client: HttpClient, text: string, conversationId?: string) {
    const res = await fetch(`${context.server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: client.cookieHeader() },
      body: JSON.stringify({ message: { text }, ...(conversationId ? { conversationId } : {}) }),
    });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-conversation-id") ?? "";
    await res.text();
    const assistantId = await waitFor(async () => {
      const rows = await db()
        .select({ id: messages.id, status: messages.status })
        .from(messages)
        .where(and(eq(messages.conversationId, id), eq(messages.role, "assistant")))
        .orderBy(asc(messages.createdAt));
      const last = rows.at(-1);
      if (last?.status !== "complete") return undefined;
      const [extraction] = await db()
        .select({ status: memoryExtractions.status })
        .from(memoryExtractions)
        .where(eq(memoryExtractions.assistantMessageId, last.id));
      return extraction && extraction.status !== "queued" && extraction.status !== "running" ? last.id : undefined;
    }, "the turn to settle");
    await afterResponseIdle();
    await getInProcessRunner().idle();
    return { conversationId: id, assistantId };
  }

  /** The conversation itself — messages and titles — which deleting memories leaves alone. */
  async function conversationTexts(userId: string): Promise<Set<string>> {
    const [rows, titles] = await Promise.all([
      db().select({ content: messages.content }).from(messages).where(eq(messages.userId, userId)),
      db().select({ title: conversations.title }).from(conversations).where(eq(conversations.userId, userId)),
    ]);
    return new Set([...rows.map((r) => r.content), ...titles.map((t) => t.title)]);
  }

  /** What every route that can return memory text returns now (JSON), plus the debug page's data. */
  async function sweep(
    user: { id: string; client: HttpClient },
    ids: { conversations: string[]; answers: string[]; memories: string[] },
  ): Promise<Sample[]> {
    const paths = [
      ...ids.answers.flatMap((id) => [`/api/messages/${id}/debug`, `/api/messages/${id}/extraction`]),
      "/api/memories",
      ...["active", "pending_confirmation", "superseded", "deleted"].map((status) => `/api/memories?status=${status}`),
      `/api/memories?q=${GAME}`,
      `/api/memories?q=${PARROT}&status=deleted`,
      ...ids.memories.flatMap((id) => [`/api/memories/${id}`, `/api/memories/${id}/history`]),
      "/api/memories/export",
      "/api/conversations",
      ...ids.conversations.map((id) => `/api/conversations/${id}/messages`),
    ];
    const samples: Sample[] = [];
    for (const path of paths) {
      const res = await user.client.request("GET", path);
      expect([200, 404], path).toContain(res.status);
      samples.push({ where: `GET ${path}`, json: res.json });
    }
    for (const conversationId of [undefined, ...ids.conversations]) {
      const res = await user.client.request("POST", "/api/memories/preview", {
        json: { message: "What board game do I like, and what is my parrot called?", conversationId },
      });
      expect(res.status).toBe(200);
      samples.push({ where: `POST /api/memories/preview (${conversationId ?? "new chat"})`, json: res.json });
    }
    for (const messageId of ids.answers) {
      const data = await getDebugPageData(db(), { userId: user.id, messageId });
      samples.push({ where: `debug page data ${messageId}`, json: JSON.parse(JSON.stringify(data)) });
    }
    return samples;
  }

  const leaksIn = (samples: Sample[], secret: string, allowed: ReadonlySet<string>) =>
    samples.flatMap((sample) => leaks(sample, secret, allowed));

  /** Every record derived from the user's memories, as stored. */
  async function derivedRecords(userId: string) {
    const [debug, extractions, events] = await Promise.all([
      db()
        .select({ id: promptDebug.id, trace: promptDebug.trace, modelInput: promptDebug.modelInput })
        .from(promptDebug)
        .where(eq(promptDebug.userId, userId))
        .orderBy(asc(promptDebug.id)),
      db()
        .select({
          id: memoryExtractions.id,
          decisions: memoryExtractions.decisions,
          modelInput: memoryExtractions.modelInput,
        })
        .from(memoryExtractions)
        .where(eq(memoryExtractions.userId, userId))
        .orderBy(asc(memoryExtractions.id)),
      db()
        .select({ id: memoryEvents.id, reason: memoryEvents.reason })
        .from(memoryEvents)
        .where(eq(memoryEvents.userId, userId))
        .orderBy(asc(memoryEvents.id)),
    ]);
    return { debug, extractions, events };
  }

  /** The sweep as it runs once the undo window of every delete made so far has closed. */
  const afterTheWindow = () =>
    redactDueDeletions(db(), { now: new Date(Date.now() + deletionConfig.undoWindowMs + 1_000), batch: 50 });

  it("one delete keeps derived records for the undo window (undo restores every one), then redacts them (a later undo brings back the memory only); delete all leaves no text anywhere", async () => {
    const ada = await registerAndSignIn(context.server.url, `privacy-${kind}`);
    // Turn 1 states two facts: extraction stores them as memories of this chat.
    const first = await chat(ada.client, `My favorite board game is ${GAME}. I have a parrot named ${PARROT}.`);
    const { memories: stored } = (await ada.client.request("GET", "/api/memories")).json as {
      memories: { id: string; content: string }[];
    };
    const game = stored.find((m) => m.content.includes(GAME));
    const parrot = stored.find((m) => m.content.includes(PARROT));
    if (!game || !parrot) throw new Error(`extraction did not store both memories: ${JSON.stringify(stored)}`);
    // Turn 2, same chat: the conversation branch puts both memories in the prompt.
    const second = await chat(ada.client, "What should we do tonight?", first.conversationId);
    // Turn 3, a new chat, restates one: its extraction compares with (and skips) the stored memory.
    const third = await chat(ada.client, `My favorite board game is ${GAME}`);
    const ids = {
      conversations: [first.conversationId, third.conversationId],
      answers: [first.assistantId, second.assistantId, third.assistantId],
      memories: [game.id, parrot.id],
    };
    const allowed = await conversationTexts(ada.id);

    // Before: the derived records do hold both texts (so the searches below can find a leak).
    const before = await sweep(ada, ids);
    const debugOf = (samples: Sample[], answer: string) =>
      samples.find((s) => s.where === `GET /api/messages/${answer}/debug`)?.json as { debug: { trace: ContextTrace } };
    const trace = debugOf(before, second.assistantId).debug.trace;
    expect(trace.memoryLines.some((line) => line.includes(GAME))).toBe(true);
    expect(trace.memoryLines.some((line) => line.includes(PARROT))).toBe(true);
    expect(
      leaksIn(before, GAME, allowed).some((l) => l.includes(`/api/messages/${third.assistantId}/extraction`)),
    ).toBe(true);
    // Turn 3's consolidation call was sent the stored memory: its recorded input holds the text.
    const inputOf = async (answer: string) =>
      (
        (await ada.client.request("GET", `/api/messages/${answer}/extraction`)).json as {
          extraction: { modelInput: unknown[] };
        }
      ).extraction.modelInput;
    const thirdInput = await inputOf(third.assistantId);
    // The route returns the row's record as stored.
    const [thirdRow] = await db()
      .select({ modelInput: memoryExtractions.modelInput })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.assistantMessageId, third.assistantId));
    expect(thirdInput).toEqual(thirdRow?.modelInput);
    expect(thirdInput.length).toBeGreaterThanOrEqual(2);
    expect(
      leaks({ where: "turn 3 consolidation call", json: thirdInput.slice(1) }, GAME, allowed).length,
    ).toBeGreaterThan(0);

    // --- Delete one, and undo inside the window: every derived record is as it was.
    const records = await derivedRecords(ada.id);
    const deleted = await ada.client.request("DELETE", `/api/memories/${game.id}`);
    expect(deleted.status).toBe(200);
    const { memory: trashed } = deleted.json as { memory: { redactAt: string | null } };
    expect(new Date(trashed.redactAt ?? 0).getTime()).toBeGreaterThan(Date.now());
    expect((await derivedRecords(ada.id)).debug).toEqual(records.debug);
    expect((await derivedRecords(ada.id)).extractions).toEqual(records.extractions);
    // The Inspect view's notice: deleted now, sent to the model, its text kept until the window closes.
    const notes = async (answer: string) =>
      (await getDebugPageData(db(), { userId: ada.id, messageId: answer }))?.view.deletedMemories;
    expect(await notes(second.assistantId)).toEqual([
      { memoryId: game.id, sent: true, textKeptUntil: new Date(trashed.redactAt ?? 0) },
    ]);
    // A sweep before the window closes changes nothing.
    expect(await redactDueDeletions(db(), { now: new Date(), batch: 50 })).toBe(0);
    expect((await ada.client.request("POST", `/api/memories/${game.id}/restore`)).json).toMatchObject({
      memory: { id: game.id, status: "active", redactAt: null },
    });
    expect(await afterTheWindow()).toBe(0);
    const undone = await derivedRecords(ada.id);
    expect(undone.debug).toEqual(records.debug);
    expect(undone.extractions).toEqual(records.extractions);
    expect(undone.events.filter((e) => e.reason !== null)).toEqual(records.events.filter((e) => e.reason !== null));
    expect(JSON.stringify(undone.debug)).toContain(GAME);
    expect(await notes(second.assistantId)).toEqual([]);

    // --- Delete one and let the window close: its text leaves every derived record; the other memory's text stays.
    expect((await ada.client.request("DELETE", `/api/memories/${game.id}`)).status).toBe(200);
    expect(await afterTheWindow()).toBe(1);
    expect(await afterTheWindow()).toBe(0);
    const afterOne = await sweep(ada, ids);
    // The trash — the memory's own row and history, and the deleted filter — keeps it for undo.
    const trash = new Set([
      `GET /api/memories/${game.id}`,
      `GET /api/memories/${game.id}/history`,
      "GET /api/memories?status=deleted",
    ]);
    const outsideTrash = afterOne
      .filter((s) => !trash.has(s.where))
      .map((s) =>
        s.where === "GET /api/memories/export"
          ? { ...s, json: (s.json as { memories: { id: string }[] }).memories.filter((m) => m.id !== game.id) }
          : s,
      );
    expect(leaksIn(outsideTrash, GAME, allowed)).toEqual([]);
    expect(leaksIn(afterOne, PARROT, allowed).length).toBeGreaterThan(0);
    expect(
      leaksIn(
        afterOne.filter((s) => trash.has(s.where)),
        GAME,
        allowed,
      ).length,
    ).toBeGreaterThan(0);

    expect(await notes(second.assistantId)).toEqual([{ memoryId: game.id, sent: true, textKeptUntil: null }]);
    const redacted = debugOf(afterOne, second.assistantId).debug;
    expect(redacted).toMatchObject({ redactedMemoryIds: [game.id] });
    expect(redacted.trace.candidates.find((c) => c.memoryId === game.id)).toMatchObject({
      title: null,
      content: DELETED_MEMORY,
      redacted: true,
    });
    expect(redacted.trace.memoryLines).toContain(DELETED_MEMORY_LINE);
    const debug = (await ada.client.request("GET", `/api/messages/${second.assistantId}/debug`)).json as {
      debug: { modelInput: { params: { prompt: { role: string; content: unknown }[] } }[] };
    };
    const system = debug.debug.modelInput[0]?.params.prompt.find((m) => m.role === "system")?.content;
    expect(system).toContain(DELETED_MEMORY_LINE);
    expect(system).toContain(PARROT);
    const extraction = (await ada.client.request("GET", `/api/messages/${third.assistantId}/extraction`)).json as {
      extraction: { decisions: { redacted?: boolean; reason: string; candidate: { content: string } }[] };
    };
    expect(extraction.extraction.decisions[0]).toMatchObject({
      redacted: true,
      reason: REDACTED_REASON,
      candidate: { content: DELETED_MEMORY },
    });
    const firstExtraction = (await ada.client.request("GET", `/api/messages/${first.assistantId}/extraction`)).json as {
      extraction: { memories: { id: string; deleted: boolean }[] };
    };
    expect(firstExtraction.extraction.memories).toContainEqual({ id: game.id, deleted: true });
    // The consolidation call keeps the memory's id, without its text; the candidate it became lost its text too.
    const redactedInput = JSON.stringify(await inputOf(third.assistantId));
    expect(redactedInput).toContain(game.id);
    expect(redactedInput).toContain(DELETED_MEMORY);
    const transcript = (await ada.client.request("GET", `/api/conversations/${first.conversationId}/messages`))
      .json as {
      messages: { debug: { memoriesUsed: { memoryId: string; title: string | null; deleted: boolean }[] } | null }[];
    };
    expect(transcript.messages.flatMap((m) => m.debug?.memoriesUsed ?? [])).toContainEqual(
      expect.objectContaining({ memoryId: game.id, title: null, deleted: true }),
    );

    // --- Undo after the window: the memory comes back (and is retrieved again); what was redacted stays redacted.
    const restored = await ada.client.request("POST", `/api/memories/${game.id}/restore`);
    expect(restored.json).toMatchObject({
      memory: { id: game.id, status: "active", content: expect.stringContaining(GAME) },
    });
    const listed = (await ada.client.request("GET", "/api/memories")).json as { memories: { id: string }[] };
    expect(listed.memories.map((m) => m.id)).toContain(game.id);
    const stillRedacted = (await ada.client.request("GET", `/api/messages/${second.assistantId}/debug`)).json;
    // Restored: nothing of this record is deleted now, so the notice counts nothing.
    expect(await notes(second.assistantId)).toEqual([]);
    expect(leaks({ where: "debug after restore", json: stillRedacted }, GAME, allowed)).toEqual([]);
    const fourth = await chat(ada.client, "Any plans for the weekend?", first.conversationId);
    const used = (await ada.client.request("GET", `/api/messages/${fourth.assistantId}/debug`)).json as {
      debug: { trace: ContextTrace };
    };
    expect(used.debug.trace.memoryLines.some((line) => line.includes(GAME))).toBe(true);
    ids.answers.push(fourth.assistantId);

    // --- Delete all: nothing, anywhere, returns either memory's text.
    const all = await ada.client.request("DELETE", "/api/memories", { json: { confirm: "delete all" } });
    expect(all.json).toEqual({ deleted: 2 });
    const afterAll = await sweep(ada, ids);
    const allowedNow = await conversationTexts(ada.id);
    expect(leaksIn(afterAll, GAME, allowedNow)).toEqual([]);
    expect(leaksIn(afterAll, PARROT, allowedNow)).toEqual([]);
    for (const id of ids.memories) {
      expect((await ada.client.request("GET", `/api/memories/${id}`)).status).toBe(404);
    }
    const last = (await ada.client.request("GET", `/api/messages/${fourth.assistantId}/debug`)).json as {
      debug: { redactedMemoryIds: string[] };
    };
    expect(last.debug.redactedMemoryIds.sort()).toEqual([game.id, parrot.id].sort());
    // The conversation is the user's: it still says what was said (docs/retrieval.md).
    expect([...allowedNow].some((text) => text.includes(GAME))).toBe(true);
  });

  describe("records written after the delete", () => {
    async function fixture(label: string) {
      const user = await registerAndSignIn(context.server.url, `${label}-${kind}`);
      const conversationId = await createConversation(db(), user.id);
      const pair = await createPair(db(), { userId: user.id, conversationId }, "Hello", "Hi.");
      const memory = await insertMemory(db(), {
        userId: user.id,
        title: "Secret",
        content: `Keeps a ${GAME} diary`,
        provenance: "user_created",
      });
      const kept = await insertMemory(db(), {
        userId: user.id,
        content: `Owns a ${PARROT} kite`,
        provenance: "user_created",
      });
      return { user, conversationId, pair, memory, kept };
    }

    it("a debug record saved after its memory was deleted now (a turn in flight) is redacted as it is written", async () => {
      const { user, conversationId, pair, memory, kept } = await fixture("late-debug");
      await deleteMemory(db(), { userId: user.id, memoryId: memory.id }, { now: true });
      const line = `• Secret: Keeps a ${GAME} diary`;
      const keptLine = `• Owns a ${PARROT} kite`;
      const candidate = (id: string, content: string, sent: string) => ({
        memoryId: id,
        title: null,
        content,
        branch: "semantic",
        rank: 1,
        fate: "included",
        line: sent,
      });
      const erased = crypto.randomUUID(); // a memory "delete all" erased meanwhile
      await savePromptDebug(db(), {
        userId: user.id,
        conversationId,
        messageId: pair.assistantMessageId,
        modelInput: [
          {
            type: "stream",
            params: { prompt: [{ role: "system", content: `## Memories\n${line}\n${keptLine}\n• Erased one` }] },
          },
        ],
        trace: {
          candidates: [
            candidate(memory.id, memory.content, line),
            candidate(kept.id, kept.content, keptLine),
            candidate(erased, "Erased one", "• Erased one"),
          ],
          memoryLines: [line, keptLine, "• Erased one"],
        },
        provider: "offline",
        modelId: "offline",
        mode: "conversational",
        retrievalStatus: "ok",
      });
      const record = await getPromptDebug(db(), { userId: user.id, messageId: pair.assistantMessageId });
      expect(JSON.stringify(record)).not.toContain(GAME);
      expect(JSON.stringify(record)).not.toContain("Erased one");
      expect(JSON.stringify(record)).toContain(PARROT);
      expect(record.trace).toMatchObject({
        memoryLines: [DELETED_MEMORY_LINE, keptLine, DELETED_MEMORY_LINE],
        redactedMemoryIds: [memory.id, erased].sort(),
      });
      expect(record.modelInput).toEqual([
        {
          type: "stream",
          params: {
            prompt: [
              { role: "system", content: `## Memories\n${DELETED_MEMORY_LINE}\n${keptLine}\n${DELETED_MEMORY_LINE}` },
            ],
          },
        },
      ]);
    });

    it("extraction decisions and model input stored after a memory they name was deleted are redacted as they are stored", async () => {
      const { user, pair, memory, kept } = await fixture("late-extraction");
      const { extraction } = await createExtraction(db(), { ...pair, status: "queued", runner: "in-process" });
      // The consolidation call as the job captured it, sent while both memories were near.
      const modelInput: CapturedCall[] = [];
      await askModel(
        withCapture(offlineLanguageModel, modelInput),
        {
          title: "Diary",
          content: `Keeps a ${GAME} diary`,
          type: "fact",
          importance: 0.5,
          tags: [],
          confidence: 1,
          isActionable: false,
          deadline: null,
          evidence: [{ role: "user", quote: GAME }],
          provenance: "user_stated",
          status: "active",
        },
        [memory, kept].map((m) => ({ ...m, status: "active" as const, similarity: 0.9, foundBy: "both" as const })),
      );
      expect(JSON.stringify(modelInput)).toContain(GAME);
      await deleteMemory(db(), { userId: user.id, memoryId: memory.id }, { now: true });
      const near = (m: typeof memory) => ({
        id: m.id,
        title: m.title,
        content: m.content,
        status: "active",
        similarity: 0.9,
      });
      await db().transaction((tx) =>
        completeExtraction(tx, {
          extractionId: extraction.id,
          memoryIds: [],
          decisions: [
            {
              candidate: {
                title: "Diary",
                content: `Keeps a ${GAME} diary`,
                evidence: [{ role: "user", quote: GAME }],
              },
              action: "skip",
              targetId: memory.id,
              memoryId: memory.id,
              reason: `Already known: ${GAME}`,
              near: [near(memory), near(kept)],
              override: null,
            },
            {
              candidate: { title: null, content: `keeps a  ${GAME} DIARY`, evidence: [] },
              action: "skip",
              targetId: null,
              memoryId: null,
              reason: "Repeats candidate 0 of this extraction.",
              near: [],
              override: null,
            },
          ],
          modelInput,
          now: new Date(),
        }),
      );
      const [row] = await db().select().from(memoryExtractions).where(eq(memoryExtractions.id, extraction.id));
      expect(row?.status).toBe("succeeded");
      expect(JSON.stringify(row?.decisions)).not.toContain(GAME);
      expect(JSON.stringify(row?.decisions)).toContain(PARROT);
      expect(JSON.stringify(row?.modelInput)).not.toContain(GAME);
      expect(JSON.stringify(row?.modelInput)).toContain(PARROT);
      expect(JSON.stringify(row?.modelInput)).toContain(memory.id);
      expect(row?.decisions).toMatchObject([
        {
          redacted: true,
          reason: REDACTED_REASON,
          candidate: { title: null, content: DELETED_MEMORY, evidence: [] },
          near: [
            { id: memory.id, content: DELETED_MEMORY, redacted: true },
            { id: kept.id, content: kept.content },
          ],
        },
        { redacted: true, candidate: { content: DELETED_MEMORY } },
      ]);
    });

    it("another memory's event reason that names a deleted memory goes; the deleted memory's own history stays", async () => {
      const { user, memory, kept } = await fixture("event-reasons");
      await db()
        .insert(memoryEvents)
        .values([
          {
            userId: user.id,
            memoryId: kept.id,
            action: "create",
            actor: "extraction",
            reason: `supersede: was "${GAME}" (replaces ${memory.id})`,
          },
          { userId: user.id, memoryId: memory.id, action: "supersede", actor: "extraction", reason: `was ${GAME}` },
        ]);
      await deleteMemory(db(), { userId: user.id, memoryId: memory.id });
      const reasons = async (memoryId: string) =>
        (await db().select().from(memoryEvents).where(eq(memoryEvents.memoryId, memoryId))).map((e) => e.reason);
      expect(await reasons(kept.id)).toEqual([`supersede: was "${GAME}" (replaces ${memory.id})`]);
      expect(await afterTheWindow()).toBe(1);
      const reasonsNow = async (memoryId: string) =>
        (await db().select().from(memoryEvents).where(eq(memoryEvents.memoryId, memoryId))).map((e) => e.reason);
      expect(await reasonsNow(kept.id)).toEqual([REDACTED_REASON]);
      expect(await reasons(memory.id)).toContain(`was ${GAME}`);
      expect(await deleteAllMemories(db(), { userId: user.id })).toBe(2);
      expect(await reasons(memory.id)).toEqual([]);
    });
  });

  /** A user's memory of the game and an answer's debug record that sent it (saved when the test says). */
  async function diaryMemory(name: string) {
    const user = await registerAndSignIn(context.server.url, name);
    const conversationId = await createConversation(db(), user.id);
    const pair = await createPair(db(), { userId: user.id, conversationId }, "Hello", "Hi.");
    const memory = await insertMemory(db(), {
      userId: user.id,
      content: `Keeps a ${GAME} diary`,
      provenance: "user_created",
    });
    const saveRecord = async () => {
      const line = `• Keeps a ${GAME} diary`;
      await savePromptDebug(db(), {
        userId: user.id,
        conversationId,
        messageId: pair.assistantMessageId,
        modelInput: [{ type: "stream", params: { prompt: [{ role: "system", content: `## Memories\n${line}` }] } }],
        trace: {
          candidates: [
            {
              memoryId: memory.id,
              title: null,
              content: memory.content,
              branch: "semantic",
              rank: 1,
              fate: "included",
              line,
            },
          ],
          memoryLines: [line],
        },
        provider: "offline",
        modelId: "offline",
        mode: "conversational",
        retrievalStatus: "ok",
      });
    };
    return { user, memory, pair, saveRecord };
  }

  it("a record written inside the undo window keeps the text, and the sweep redacts it when the window closes", async () => {
    const { user, memory, pair, saveRecord } = await diaryMemory(`window-${kind}`);
    await deleteMemory(db(), { userId: user.id, memoryId: memory.id });
    await saveRecord();
    const record = () => getPromptDebug(db(), { userId: user.id, messageId: pair.assistantMessageId });
    expect(JSON.stringify(await record())).toContain(GAME);
    expect(await afterTheWindow()).toBe(1);
    expect(JSON.stringify(await record())).not.toContain(GAME);
    expect((await record()).trace).toMatchObject({
      memoryLines: [DELETED_MEMORY_LINE],
      redactedMemoryIds: [memory.id],
    });
  });

  it("delete now (?now=true) redacts at once, also a memory already in the trash whose window is open", async () => {
    const ada = await registerAndSignIn(context.server.url, `now-${kind}`);
    const first = await chat(ada.client, `My favorite board game is ${GAME}. I have a parrot named ${PARROT}.`);
    const second = await chat(ada.client, "What should we do tonight?", first.conversationId);
    const { memories: stored } = (await ada.client.request("GET", "/api/memories")).json as {
      memories: { id: string; content: string }[];
    };
    const game = stored.find((m) => m.content.includes(GAME));
    const parrot = stored.find((m) => m.content.includes(PARROT));
    if (!game || !parrot) throw new Error(`extraction did not store both memories: ${JSON.stringify(stored)}`);
    // The conversation itself says what was said: only the record's other strings count.
    const allowed = await conversationTexts(ada.id);
    const leaksOf = async (secret: string) =>
      leaks(
        { where: "debug", json: (await ada.client.request("GET", `/api/messages/${second.assistantId}/debug`)).json },
        secret,
        allowed,
      );
    expect(await leaksOf(GAME)).not.toEqual([]);

    const now = await ada.client.request("DELETE", `/api/memories/${game.id}?now=true`);
    expect(now.json).toMatchObject({ memory: { status: "deleted", redactAt: null } });
    expect(await leaksOf(GAME)).toEqual([]);

    await ada.client.request("DELETE", `/api/memories/${parrot.id}`);
    expect(await leaksOf(PARROT)).not.toEqual([]);
    expect((await ada.client.request("DELETE", `/api/memories/${parrot.id}?now=true`)).json).toMatchObject({
      memory: { status: "deleted", redactAt: null },
    });
    expect(await leaksOf(PARROT)).toEqual([]);
    expect((await ada.client.request("DELETE", `/api/memories/${parrot.id}?now=yes`)).status).toBe(400);
  });

  it("durable: a window that closed while no process ran is redacted by the process's sweeps", async () => {
    const { user, memory, pair, saveRecord } = await diaryMemory(`durable-${kind}`);
    await saveRecord();
    await deleteMemory(db(), { userId: user.id, memoryId: memory.id });
    // The process that took the delete stopped; its window closed an hour ago.
    await db()
      .update(memories)
      .set({ redactAt: new Date(Date.now() - 3_600_000) })
      .where(eq(memories.id, memory.id));
    // A process starting on this database (its data directory exists: tmpdir) runs the sweeps.
    const sweeps = processSweeps({ ...process.env, LIFELINE_DATA_DIR: tmpdir() });
    expect(await sweeps.dueRedactions()).toBeGreaterThanOrEqual(1);
    const record = await getPromptDebug(db(), { userId: user.id, messageId: pair.assistantMessageId });
    expect(JSON.stringify(record)).not.toContain(GAME);
    const [row] = await db().select({ redactAt: memories.redactAt }).from(memories).where(eq(memories.id, memory.id));
    expect(row?.redactAt).toBeNull();
  });

  it("redaction runs with JIT off for the rest of its transaction (JIT compiled each jsonb rewrite: 1–4 s per delete)", async () => {
    const user = await registerAndSignIn(context.server.url, `jit-${kind}`);
    const memory = await insertMemory(db(), {
      userId: user.id,
      content: `Keeps a ${GAME} diary`,
      provenance: "user_created",
    });
    const settings = await db().transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL jit = on`);
      const [before] = await selectRows<{ jit: string }>(tx, sql`SHOW jit`);
      await redactDeletedMemories(tx, { userId: user.id, memoryIds: [memory.id] });
      const [after] = await selectRows<{ jit: string }>(tx, sql`SHOW jit`);
      return [before?.jit, after?.jit];
    });
    expect(settings).toEqual(["on", "off"]);
  });
});
