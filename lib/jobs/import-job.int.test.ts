/**
 * An import end to end on both databases: a batch writes archived, read-only conversations with
 * their original dates and one queued extraction per exchange; the import job runs every exchange
 * through the extraction job; the same export again adds nothing; a bad batch writes nothing; a
 * stop mid-import resumes where it stopped; live extractions go first.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { undoImport } from "@/db/queries/import-undo";
import {
  addImportBatch,
  type BatchConversation,
  changeImportState,
  createImport,
  getImportProgress,
  type ImportAction,
  startImport,
} from "@/db/queries/imports";
import { insertMemory } from "@/db/queries/memories";
import { insertMemoryEvents } from "@/db/queries/memory-events";
import { listMemories } from "@/db/queries/memory-list";
import { savePromptDebug } from "@/db/queries/prompt-debug";
import { conversations, memories, memoryExtractions, messages } from "@/db/schema";
import { TurnsInFlight } from "@/lib/chat/in-flight";
import { readExport } from "@/lib/import/read-export";
import { getInProcessRunner } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import { byId, createUser, gate, memoryStatuses, testDeps } from "@/tests/fixtures/jobs";
import { registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";
import { dispatchUndispatchedExtractions } from "./extraction-queue";
import { runImport } from "./import-job";
import { InProcessImportRunner } from "./import-runner";
import type { JobSteps } from "./steps";

process.env.AUTH_SECRET ??= "import-test-secret-0123456789abcdef";

const exported = readExport(readFileSync(join(__dirname, "../import/fixtures/chatgpt-conversations.json")));
const steps: JobSteps = { runner: "in-process", run: (_id, fn) => fn(), retryAt: (_n, now) => now };

/** `turns` as the runner sees them, noting each wait in `events` and opening `waiting` at the first. */
function observedTurns(turns: TurnsInFlight, events: string[], waiting: ReturnType<typeof gate>) {
  return {
    get size() {
      return turns.size;
    },
    idle: (deadline: number) => {
      events.push("waits");
      waiting.open();
      return turns.idle(deadline);
    },
  };
}

describe.each(DB_KINDS)("importing conversations on %s", (kind) => {
  const context = useTestServer(kind);
  const db = () => context.database.db;

  async function importBatch(userId: string, batch: BatchConversation[] = exported.conversations) {
    const row = await createImport(db(), { userId, source: "chatgpt", fileName: "export.zip" });
    const result = await addImportBatch(db(), { userId, importId: row.id, conversations: batch, runner: "in-process" });
    await startImport(db(), { userId, importId: row.id, now: new Date() });
    return { importId: row.id, result };
  }

  it("keeps each conversation archived with its original dates, and extracts every exchange through the extraction job", async () => {
    const userId = await createUser(db());
    const { importId, result } = await importBatch(userId);
    expect(result).toEqual({ conversationsAdded: 2, messagesAdded: 6, messagesAlreadyImported: 0, exchangesQueued: 3 });

    const [bike] = await db()
      .select()
      .from(conversations)
      .where(
        and(eq(conversations.userId, userId), eq(conversations.sourceId, exported.conversations[0]?.sourceId ?? "")),
      );
    expect(bike).toMatchObject({
      title: "Commuting by bike",
      archived: true,
      importedFrom: "chatgpt",
      importId,
      createdAt: new Date("2023-11-14T22:13:20.123Z"),
    });
    const chain = await db()
      .select({ id: messages.id, parent: messages.parentMessageId, role: messages.role, createdAt: messages.createdAt })
      .from(messages)
      .where(eq(messages.conversationId, bike?.id ?? ""))
      .orderBy(asc(messages.createdAt));
    expect(chain.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(chain.map((m) => m.parent)).toEqual([null, chain[0]?.id, chain[1]?.id, chain[2]?.id]);
    expect(bike?.currentMessageId).toBe(chain[3]?.id);

    // Live extraction's outbox never hands an import's rows over.
    const handed: string[] = [];
    await dispatchUndispatchedExtractions(
      db(),
      { kind: "in-process", dispatch: async ({ extractionId }) => void handed.push(extractionId) },
      { now: new Date(Date.now() + 3_600_000), afterMs: 0 },
    );
    expect(handed).toEqual([]);

    const outcome = await runImport(testDeps(db()), { importId }, steps);
    expect(outcome).toEqual({ importId, status: "done", ran: 3 });
    const progress = await getImportProgress(db(), { userId, importId });
    expect(progress).toMatchObject({ status: "done", conversations: 2, exchanges: { total: 3, done: 3, failed: 0 } });

    const stored = await db()
      .select({ content: memories.content, provenance: memories.provenance, source: memories.sourceUserMessageId })
      .from(memories)
      .where(eq(memories.userId, userId));
    expect(stored.length).toBe(progress.memoriesFound);
    expect(stored.map((m) => m.content).join(" | ")).toMatch(/Lisbon/);
    const lisbon = stored.find((m) => m.content.includes("Lisbon"));
    expect(lisbon?.provenance).toBe("user_stated");
    expect(lisbon?.source).toBe(chain[0]?.id);

    // An imported answer was never sent to a model here: it has no Inspect view to link to, until
    // a debug record exists for it.
    const listed = await listMemories(db(), { userId });
    expect(listed.memories.length).toBe(stored.length);
    expect(listed.memories.every((m) => m.sourceInspectable === false)).toBe(true);
    const sourceAnswer = listed.memories[0]?.sourceAssistantMessageId ?? "";
    await savePromptDebug(db(), {
      userId,
      conversationId: bike?.id ?? "",
      messageId: sourceAnswer,
      modelInput: [],
      trace: {},
      provider: "offline",
      modelId: "offline",
      mode: "conversational",
      temperature: 0.7,
      retrievalStatus: "disabled",
    });
    const relisted = await listMemories(db(), { userId });
    for (const m of relisted.memories) {
      expect(m.sourceInspectable).toBe(m.sourceAssistantMessageId === sourceAnswer);
    }
  });

  it("adds nothing when the same export comes again, and only the new exchange from a newer export", async () => {
    const userId = await createUser(db());
    await importBatch(userId);
    const again = await importBatch(userId);
    expect(again.result).toEqual({
      conversationsAdded: 0,
      messagesAdded: 0,
      messagesAlreadyImported: 6,
      exchangesQueued: 0,
    });

    const [first, second] = exported.conversations;
    if (!first || !second) throw new Error("fixture");
    const newer: BatchConversation = {
      ...first,
      messages: [
        ...first.messages,
        { sourceId: "n-u3", role: "user", text: "I also swim on Sundays.", createdAt: "2023-11-15T08:00:00.000Z" },
        { sourceId: "n-a3", role: "assistant", text: "Swimming is great.", createdAt: "2023-11-15T08:00:05.000Z" },
      ],
    };
    const overlap = await importBatch(userId, [newer, second]);
    expect(overlap.result).toEqual({
      conversationsAdded: 0,
      messagesAdded: 2,
      messagesAlreadyImported: 6,
      exchangesQueued: 1,
    });
    const rows = await db()
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.userId, userId), isNotNull(conversations.importedFrom)));
    expect(rows).toHaveLength(2);
  });

  it("finds a message again by its content hash: re-exported under new ids, or sent without one", async () => {
    const userId = await createUser(db());
    await importBatch(userId);
    const [first, second] = exported.conversations;
    if (!first || !second) throw new Error("fixture");
    const renamed = (c: BatchConversation, tag: string): BatchConversation => ({
      ...c,
      sourceId: `${c.sourceId}-${tag}`,
      messages: c.messages.map((m) => ({ ...m, sourceId: `${m.sourceId}-${tag}` })),
    });
    // Every id new, and the text's whitespace and Unicode form changed: the same messages.
    const reexported = renamed(first, "v2");
    reexported.messages = reexported.messages.map((m, i) =>
      i === 0 ? { ...m, text: `  ${m.text.replace(/ /g, "\n ")} ` } : m,
    );
    const again = await importBatch(userId, [reexported, renamed(second, "v2")]);
    expect(again.result).toEqual({
      conversationsAdded: 0,
      messagesAdded: 0,
      messagesAlreadyImported: 6,
      exchangesQueued: 0,
    });

    // A newer export under other ids, one new exchange at the end: only that is added, to the same conversation.
    const newer: BatchConversation = {
      ...renamed(first, "v3"),
      messages: [
        ...renamed(first, "v3").messages,
        { sourceId: "v3-u9", role: "user", text: "I also swim on Sundays.", createdAt: "2023-11-15T08:00:00.000Z" },
        { sourceId: "v3-a9", role: "assistant", text: "Swimming is great.", createdAt: "2023-11-15T08:00:05.000Z" },
      ],
    };
    const overlap = await importBatch(userId, [newer]);
    expect(overlap.result).toEqual({
      conversationsAdded: 0,
      messagesAdded: 2,
      messagesAlreadyImported: 4,
      exchangesQueued: 1,
    });
    const rows = await db()
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.userId, userId), isNotNull(conversations.importedFrom)));
    expect(rows).toHaveLength(2);

    // Messages without ids (a script's): found again by hash; the same words said twice at one time stay two.
    const noIds: BatchConversation = {
      sourceId: "script-1",
      title: "From a script",
      createdAt: "2024-02-01T10:00:00.000Z",
      messages: [
        { role: "user", text: "ok", createdAt: "2024-02-01T10:00:00.000Z" },
        { role: "assistant", text: "Fine.", createdAt: "2024-02-01T10:00:01.000Z" },
        { role: "user", text: "ok", createdAt: "2024-02-01T10:00:00.000Z" },
        { role: "assistant", text: "Noted.", createdAt: "2024-02-01T10:00:02.000Z" },
      ],
    };
    const script = await importBatch(userId, [noIds]);
    expect(script.result).toMatchObject({ conversationsAdded: 1, messagesAdded: 4, exchangesQueued: 2 });
    const scriptAgain = await importBatch(userId, [noIds]);
    expect(scriptAgain.result).toEqual({
      conversationsAdded: 0,
      messagesAdded: 0,
      messagesAlreadyImported: 4,
      exchangesQueued: 0,
    });

    // Another user's identical export is theirs: nothing of the first user's is matched.
    const other = await createUser(db());
    const theirs = await importBatch(other, [noIds]);
    expect(theirs.result).toMatchObject({ conversationsAdded: 1, messagesAdded: 4 });
  });

  it("writes nothing from a batch the database refuses part-way", async () => {
    const userId = await createUser(db());
    const row = await createImport(db(), { userId, source: "chatgpt", fileName: "export.json" });
    const [good] = exported.conversations;
    if (!good) throw new Error("fixture");
    // Messages of its own: the same messages would find the good conversation by their hashes.
    const bad: BatchConversation = {
      ...good,
      sourceId: "bad-1",
      title: "nul \u0000 in a title",
      messages: good.messages.map((m) => ({ ...m, sourceId: `${m.sourceId}-bad`, text: `${m.text} Again.` })),
    };
    await expect(
      addImportBatch(db(), { userId, importId: row.id, conversations: [good, bad], runner: "in-process" }),
    ).rejects.toThrow();
    expect(await db().select().from(conversations).where(eq(conversations.userId, userId))).toEqual([]);
    expect(await db().select().from(memoryExtractions).where(eq(memoryExtractions.userId, userId))).toEqual([]);
  });

  it("resumes an import a stop left half done: nothing run twice, nothing lost", async () => {
    const userId = await createUser(db());
    const { importId } = await importBatch(userId);
    const first = await runImport(testDeps(db()), { importId }, steps, { pairsPerRun: 1 });
    expect(first).toMatchObject({ status: "continue", ran: 1 });
    // The process stopped while the next exchange was running.
    const [interrupted] = await db()
      .select({ id: memoryExtractions.id })
      .from(memoryExtractions)
      .where(and(eq(memoryExtractions.importId, importId), eq(memoryExtractions.status, "queued")))
      .limit(1);
    await db()
      .update(memoryExtractions)
      .set({ status: "running", attempts: 1 })
      .where(eq(memoryExtractions.id, interrupted?.id ?? ""));

    const restarted = new InProcessImportRunner({
      deps: async () => testDeps(db()),
      liveIdle: async () => {},
      chatTurns: new TurnsInFlight(),
    });
    expect(await restarted.resume()).toBeGreaterThanOrEqual(1);
    await restarted.idle();

    const progress = await getImportProgress(db(), { userId, importId });
    expect(progress).toMatchObject({ status: "done", exchanges: { total: 3, done: 3, failed: 0 } });
    const rows = await db()
      .select({ status: memoryExtractions.status, memoryIds: memoryExtractions.memoryIds })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, importId));
    const stored = await db().select({ id: memories.id }).from(memories).where(eq(memories.userId, userId));
    expect(new Set(rows.flatMap((r) => r.memoryIds)).size).toBe(stored.length);
  });

  it("pauses after the exchange in hand and resumes where it stopped; a cancelled import reads nothing more", async () => {
    const userId = await createUser(db());
    const deps = testDeps(db());
    const change = (importId: string, action: ImportAction, who = userId) =>
      changeImportState(db(), { userId: who, importId, action, now: new Date() });

    const paused = await importBatch(userId);
    expect(await runImport(deps, { importId: paused.importId }, steps, { pairsPerRun: 1 })).toMatchObject({ ran: 1 });
    expect((await change(paused.importId, "pause")).status).toBe("paused");
    expect(await runImport(deps, { importId: paused.importId }, steps)).toMatchObject({
      status: "not-running",
      ran: 0,
    });
    expect(await getImportProgress(db(), { userId, importId: paused.importId })).toMatchObject({
      status: "paused",
      exchanges: { total: 3, done: 1 },
    });
    await expect(change(paused.importId, "pause")).rejects.toMatchObject({ code: "conflict:import_state" });
    await expect(change(paused.importId, "pause", await createUser(db()))).rejects.toMatchObject({
      code: "not_found:import",
    });
    expect((await change(paused.importId, "resume")).status).toBe("running");
    expect(await runImport(deps, { importId: paused.importId }, steps)).toMatchObject({ status: "done", ran: 2 });
    await expect(change(paused.importId, "cancel")).rejects.toMatchObject({ code: "conflict:import_state" });

    const other = await createUser(db());
    const cancelled = await importBatch(other);
    expect(await runImport(deps, { importId: cancelled.importId }, steps, { pairsPerRun: 1 })).toMatchObject({
      ran: 1,
    });
    expect((await change(cancelled.importId, "cancel", other)).status).toBe("cancelled");
    expect(await runImport(deps, { importId: cancelled.importId }, steps)).toMatchObject({
      status: "not-running",
      ran: 0,
    });
    await expect(change(cancelled.importId, "resume", other)).rejects.toMatchObject({ code: "conflict:import_state" });
    const progress = await getImportProgress(db(), { userId: other, importId: cancelled.importId });
    expect(progress).toMatchObject({ status: "cancelled", exchanges: { total: 3, done: 1, failed: 0 } });
    expect(progress.finishedAt).toBeInstanceOf(Date);
  });

  it("lists a failed exchange with its answer, and the extraction retry reads it again", async () => {
    const owner = await registerAndSignIn(context.server.url, `import-retry-${kind}`);
    const { importId } = await importBatch(owner.id);
    expect(await runImport(testDeps(db()), { importId }, steps)).toMatchObject({ status: "done" });
    const [row] = await db()
      .select({ id: memoryExtractions.id, answer: memoryExtractions.assistantMessageId })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, importId))
      .limit(1);
    await db()
      .update(memoryExtractions)
      .set({ status: "failed", lastError: "the model did not answer" })
      .where(eq(memoryExtractions.id, row?.id ?? ""));
    const failed = await getImportProgress(db(), { userId: owner.id, importId });
    expect(failed.exchanges).toMatchObject({ done: 2, failed: 1 });
    expect(failed.failures).toEqual([
      expect.objectContaining({
        extractionId: row?.id,
        assistantMessageId: row?.answer,
        error: "the model did not answer",
      }),
    ]);

    const retry = await owner.client.request("POST", `/api/messages/${row?.answer}/extraction/retry`);
    expect(retry.status).toBe(202);
    await getInProcessRunner().idle();
    const after = await getImportProgress(db(), { userId: owner.id, importId });
    expect(after).toMatchObject({ status: "done", exchanges: { total: 3, done: 3, failed: 0 }, failures: [] });
  });

  it("undoes an import: its conversations and the memories it created are gone, a memory it superseded is back", async () => {
    const userId = await createUser(db());
    const { importId } = await importBatch(userId);
    await runImport(testDeps(db()), { importId }, steps);
    const imported = await db().select().from(memories).where(eq(memories.userId, userId));
    expect(imported.length).toBeGreaterThan(0);
    const own = await insertMemory(db(), { userId, content: "Plays the cello", provenance: "user_created" });
    // As consolidation records a supersede: the older memory points at the imported one, by its extraction.
    const older = await insertMemory(db(), {
      userId,
      content: "Lives in Porto",
      provenance: "user_created",
      status: "superseded",
      supersededById: imported[0]?.id,
    });
    const [extraction] = await db()
      .select({ id: memoryExtractions.id })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, importId))
      .limit(1);
    await insertMemoryEvents(db(), [
      {
        userId,
        memoryId: older.id,
        action: "supersede",
        actor: "extraction",
        before: { status: "active", supersededById: null },
        after: { status: "superseded", supersededById: imported[0]?.id },
        extractionId: extraction?.id,
      },
    ]);

    await expect(undoImport(db(), { userId: await createUser(db()), importId })).rejects.toMatchObject({
      code: "not_found:import",
    });
    expect(await undoImport(db(), { userId, importId })).toEqual({
      conversationsDeleted: 2,
      memoriesErased: imported.length,
      memoriesRestored: 1,
      memoriesKept: 0,
      kept: [],
    });
    expect(await memoryStatuses(db(), userId)).toEqual(
      byId([
        { id: own.id, status: "active" },
        { id: older.id, status: "active" },
      ]),
    );
    expect(await db().select().from(conversations).where(eq(conversations.userId, userId))).toEqual([]);
    expect(await db().select().from(memoryExtractions).where(eq(memoryExtractions.userId, userId))).toEqual([]);
    await expect(getImportProgress(db(), { userId, importId })).rejects.toMatchObject({ code: "not_found:import" });
    // Nothing left to run: a job still holding the import stops.
    expect(await runImport(testDeps(db()), { importId }, steps)).toMatchObject({ status: "not-running", ran: 0 });
  });

  it("lets the user's live extractions finish before each imported exchange", async () => {
    const userId = await createUser(db());
    const { importId } = await importBatch(userId);
    const live = gate();
    const runner = new InProcessImportRunner({
      deps: async () => testDeps(db()),
      liveIdle: () => live.promise,
      chatTurns: new TurnsInFlight(),
    });
    const done = runner.run({ importId, userId });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = await db()
      .select({ status: memoryExtractions.status })
      .from(memoryExtractions)
      .where(and(eq(memoryExtractions.importId, importId), eq(memoryExtractions.status, "queued")));
    expect(started).toHaveLength(3);
    live.open();
    await done;
    expect((await getImportProgress(db(), { userId, importId })).status).toBe("done");
  });

  it("starts no imported exchange while any user's chat turn is in flight, and goes on once it settles", async () => {
    const userId = await createUser(db());
    const { importId } = await importBatch(userId);
    const turns = new TurnsInFlight();
    const endTurn = turns.begin();
    const events: string[] = [];
    const waiting = gate();
    const chatTurns = observedTurns(turns, events, waiting);
    // Every exchange's first step claims its row with deps.now().
    const deps = testDeps(db(), {
      now: () => {
        events.push("exchange step");
        return new Date();
      },
    });
    const runner = new InProcessImportRunner({
      deps: async () => deps,
      liveIdle: async () => {},
      chatTurns,
      maxChatWaitMs: 60_000,
    });
    const done = runner.run({ importId, userId });
    await waiting.promise;
    // A runner that went on would claim a row within these turns of the event loop.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    const rows = await db()
      .select({ status: memoryExtractions.status })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, importId));
    expect(rows.map((row) => row.status)).toEqual(["queued", "queued", "queued"]);
    expect(events).toEqual(["waits"]);
    events.push("turn settled");
    endTurn();
    await done;
    expect(events.slice(0, 3)).toEqual(["waits", "turn settled", "exchange step"]);
    expect((await getImportProgress(db(), { userId, importId })).status).toBe("done");
  });

  it("pauses an exchange between its steps while a chat turn that began during it is in flight", async () => {
    const userId = await createUser(db());
    const { importId } = await importBatch(userId);
    const turns = new TurnsInFlight();
    let endTurn = () => {};
    const events: string[] = [];
    const waiting = gate();
    const chatTurns = observedTurns(turns, events, waiting);
    const deps = testDeps(db(), {
      now: () => {
        events.push("exchange step");
        // The turn begins as the first exchange claims its row, in its first step.
        if (events.length === 1) endTurn = turns.begin();
        return new Date();
      },
    });
    const runner = new InProcessImportRunner({ deps: async () => deps, liveIdle: async () => {}, chatTurns });
    const done = runner.run({ importId, userId });
    await waiting.promise;
    const rows = await db()
      .select({ status: memoryExtractions.status })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, importId));
    expect(rows.map((row) => row.status).sort()).toEqual(["queued", "queued", "running"]);
    expect(events).toEqual(["exchange step", "waits"]);
    endTurn();
    await done;
    expect((await getImportProgress(db(), { userId, importId })).status).toBe("done");
  });

  it.runIf(kind === "pglite")(
    "runs a chat query that arrives during an exchange's step before the step's next statement",
    async () => {
      const userId = await createUser(db());
      const { importId } = await importBatch(userId);
      const turns = new TurnsInFlight();
      const events: string[] = [];
      const waiting = gate();
      let seen: string[] = [];
      let chatQuery: Promise<void> | undefined;
      const deps = (letChatFirst: () => Promise<void>) =>
        testDeps(context.database.yieldingTo(letChatFirst), {
          // The first exchange's first step dates its claim, then issues the claim statement.
          now: () => {
            events.push("exchange step");
            if (events.length > 1) return new Date();
            // A request arrives on a later turn of the event loop, as an I/O callback does, and counts itself a turn;
            // its first query comes on a turn after that (the route reads the body first).
            setImmediate(() => {
              const endTurn = turns.begin();
              events.push("chat arrives");
              setImmediate(() => {
                chatQuery = db()
                  .select({ status: memoryExtractions.status })
                  .from(memoryExtractions)
                  .where(eq(memoryExtractions.importId, importId))
                  .then((rows) => {
                    events.push("chat query");
                    seen = rows.map((row) => row.status);
                    endTurn();
                  });
              });
            });
            return new Date();
          },
        });
      const runner = new InProcessImportRunner({
        deps: async (letChatFirst) => deps(letChatFirst),
        liveIdle: async () => {},
        chatTurns: observedTurns(turns, events, waiting),
        maxChatWaitMs: 60_000,
      });
      await runner.run({ importId, userId });
      await chatQuery;
      // Without the statement-level wait the exchange's statements ran on without giving the event loop a turn.
      expect(events.slice(0, 5)).toEqual(["exchange step", "chat arrives", "waits", "chat query", "exchange step"]);
      expect(seen).toEqual(["queued", "queued", "queued"]);
      expect((await getImportProgress(db(), { userId, importId })).status).toBe("done");
    },
  );

  it.runIf(kind === "postgres")(
    "leaves the import's statements unheld on Postgres, where they hold no chat back",
    () => {
      expect(context.database.yieldingTo(async () => {})).toBe(db());
    },
  );

  it("waits for chat turns at most maxChatWaitMs an exchange, so chat that never stops cannot starve an import", async () => {
    const userId = await createUser(db());
    const { importId } = await importBatch(userId);
    const turns = new TurnsInFlight();
    turns.begin();
    const runner = new InProcessImportRunner({
      // Its statements wait for chat turns too (on PGlite), within the same bound.
      deps: async (letChatFirst) => testDeps(context.database.yieldingTo(letChatFirst)),
      liveIdle: async () => {},
      chatTurns: turns,
      maxChatWaitMs: 1,
    });
    await runner.run({ importId, userId });
    expect(turns.size).toBe(1);
    expect((await getImportProgress(db(), { userId, importId })).status).toBe("done");
  });

  it("answers a bad batch with a 400 naming the field, and another user's import with a 404", async () => {
    const owner = await registerAndSignIn(context.server.url, `import-${kind}`);
    const created = await owner.client.request("POST", "/api/imports", {
      json: { source: "chatgpt", fileName: "x.zip" },
    });
    expect(created.status).toBe(201);
    const { import: row } = created.json as { import: { id: string } };
    const [good] = exported.conversations;
    const bad = await owner.client.request("POST", `/api/imports/${row.id}/conversations`, {
      json: {
        conversations: [{ ...good, messages: [{ sourceId: "m", role: "tool", text: "x", createdAt: "yesterday" }] }],
      },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.json as { error: { fields: Record<string, string> } }).error.fields).sort()).toEqual([
      "body.conversations.0.messages.0.createdAt",
      "body.conversations.0.messages.0.role",
    ]);
    const added = await owner.client.request("POST", `/api/imports/${row.id}/conversations`, {
      json: { conversations: [good] },
    });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({ conversationsAdded: 1, exchangesQueued: 2 });

    // An imported conversation is read-only: a chat turn in it is refused before anything is written.
    const [imported] = await db()
      .select({ id: conversations.id })
      .from(conversations)
      .where(eq(conversations.userId, owner.id));
    const turn = await owner.client.request("POST", "/api/chat", {
      json: { conversationId: imported?.id, message: { text: "Continue this" } },
    });
    expect(turn.status).toBe(409);
    expect(turn.json).toMatchObject({ error: { code: "conflict:imported_conversation" } });
    expect(
      await db()
        .select({ id: messages.id })
        .from(messages)
        .where(eq(messages.conversationId, imported?.id ?? "")),
    ).toHaveLength(4);

    const stranger = await registerAndSignIn(context.server.url, `import-other-${kind}`);
    const requests = [
      ["GET", `/api/imports/${row.id}`, {}],
      ["POST", `/api/imports/${row.id}/conversations`, { json: { conversations: [good] } }],
      ["POST", `/api/imports/${row.id}/start`, {}],
    ] as const;
    for (const [method, path, options] of requests) {
      const response = await stranger.client.request(method, path, options);
      expect(response.status, `${method} ${path}`).toBe(404);
    }
  });

  it("saves a reviewed pasted list all or none, each memory marked as pasted", async () => {
    const user = await registerAndSignIn(context.server.url, `pasted-${kind}`);
    const saved = await user.client.request("POST", "/api/imports/pasted", {
      json: { memories: ["Lives in Porto", "Has a cat named Miso"] },
    });
    expect(saved.status).toBe(201);
    const rows = await db()
      .select({ content: memories.content, provenance: memories.provenance, pastedAt: memories.pastedAt })
      .from(memories)
      .where(eq(memories.userId, user.id))
      .orderBy(asc(memories.content));
    expect(rows.map((r) => [r.content, r.provenance, r.pastedAt instanceof Date])).toEqual([
      ["Has a cat named Miso", "user_created", true],
      ["Lives in Porto", "user_created", true],
    ]);

    const bad = await user.client.request("POST", "/api/imports/pasted", {
      json: { memories: ["Likes tea", "nul \u0000 here"] },
    });
    expect(bad.status).toBe(400);
    expect(await db().select({ id: memories.id }).from(memories).where(eq(memories.userId, user.id))).toHaveLength(2);
  });
});
