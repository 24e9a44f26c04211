/**
 * enqueueExtraction and the in-process runner against real databases (PGlite and Postgres):
 * the answer's path returns before extraction runs, retries are recorded on the row, one job at a
 * time per user, and a restart resumes what a stopped process left behind.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { logger } from "@/core/logger";
import { setDatabase } from "@/db/client";
import { getExtraction } from "@/db/queries/extractions";
import { conversations, memories, memoryExtractions } from "@/db/schema";
import { EXTRACTION_OUTPUT_NAME } from "@/lib/memory/extraction/schema";
import { parseExtractionPrompt } from "@/lib/offline/prompt-readers";
import { getInProcessRunner, processDispatcher, resumeExtractions } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import {
  createConversation,
  createPair,
  createQueuedPair,
  createUser,
  gate,
  promptText,
  scriptedModel,
  testDeps,
} from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";
import { MAX_EXTRACTION_ATTEMPTS } from "./extraction-job";
import { type ExtractionDispatcher, enqueueExtraction, inngestDispatcher, retryExtraction } from "./extraction-queue";
import { INTERRUPTED_ERROR, InProcessRunner } from "./in-process-runner";
import { createInngestClient } from "./inngest-client";

const FAST = { backoffBaseMs: 20, backoffMaxMs: 200 };

describe.each(DB_KINDS)("extraction queue and in-process runner on %s", (kind) => {
  const database = useTestDatabase(kind);

  const owner = async () => {
    const userId = await createUser(database.db);
    return { userId, conversationId: await createConversation(database.db, userId) };
  };
  const row = async (extractionId: string) => {
    const extraction = await getExtraction(database.db, { extractionId });
    if (!extraction) throw new Error("extraction row vanished");
    return extraction;
  };
  const contentsOf = async (userId: string) =>
    (await database.db.select({ content: memories.content }).from(memories).where(eq(memories.userId, userId))).map(
      (m) => m.content,
    );
  const runnerWith = (deps: Parameters<typeof testDeps>[1] = {}) =>
    new InProcessRunner({ deps: async () => testDeps(database.db, deps), backoff: FAST });
  const dispatchingTo = (runner: InProcessRunner, calls: string[] = []): ExtractionDispatcher => ({
    kind: "in-process",
    dispatch: (job) => {
      calls.push(job.extractionId);
      return runner.run(job);
    },
  });

  it("returns to the answer before extraction runs; the memory is stored after", async () => {
    const me = await owner();
    const pair = await createPair(database.db, me, "I prefer green tea", "Noted.");
    const held = gate();
    const model = scriptedModel({
      [EXTRACTION_OUTPUT_NAME]: async () => {
        await held.promise;
        return null;
      },
    });
    const runner = runnerWith({ model });

    const result = await enqueueExtraction(database.db, { ...pair, memoryEnabled: true }, dispatchingTo(runner));

    expect(result.status).toBe("queued");
    expect(await contentsOf(me.userId)).toEqual([]);
    expect(["queued", "running"]).toContain((await row(result.extractionId)).status);
    held.open();
    await runner.idle();
    expect(await row(result.extractionId)).toMatchObject({ status: "succeeded", attempts: 1, runner: "in-process" });
    expect(await contentsOf(me.userId)).toEqual(["Prefers green tea"]);
  });

  it("wires the default path: the process database, the offline models and the process runner", async () => {
    setDatabase(database);
    try {
      const me = await owner();
      const pair = await createPair(database.db, me, "My dog's name is Rex", "Hi Rex!");
      const result = await enqueueExtraction(database.db, { ...pair, memoryEnabled: true }, processDispatcher());
      await getInProcessRunner().idle();
      expect(await row(result.extractionId)).toMatchObject({ status: "succeeded", runner: "in-process" });
      expect(await contentsOf(me.userId)).toEqual(["Dog's name is Rex"]);
    } finally {
      setDatabase(undefined);
    }
  });

  it("records a pair once: enqueueing it again returns the same row and dispatches nothing", async () => {
    const me = await owner();
    const pair = await createPair(database.db, me, "I live in Porto", "Nice!");
    const runner = runnerWith();
    const calls: string[] = [];
    const first = await enqueueExtraction(database.db, { ...pair, memoryEnabled: true }, dispatchingTo(runner, calls));
    await runner.idle();
    const again = await enqueueExtraction(database.db, { ...pair, memoryEnabled: true }, dispatchingTo(runner, calls));
    await runner.idle();

    expect(again).toEqual({ extractionId: first.extractionId, status: "succeeded" });
    expect(calls).toEqual([first.extractionId]);
    expect(await contentsOf(me.userId)).toEqual(["Lives in Porto"]);
  });

  it("records a temporary chat's pair as skipped and runs nothing", async () => {
    const me = await owner();
    const pair = await createPair(database.db, me, "I live in Porto", "Nice!");
    const calls: string[] = [];
    const result = await enqueueExtraction(
      database.db,
      { ...pair, memoryEnabled: false },
      dispatchingTo(runnerWith(), calls),
    );

    expect(result.status).toBe("skipped");
    expect(calls).toEqual([]);
    expect(await row(result.extractionId)).toMatchObject({
      status: "skipped",
      runner: null,
      finishedAt: expect.any(Date),
    });
    expect(await contentsOf(me.userId)).toEqual([]);
  });

  it("refuses a pair that is not the user's (or not a pair), writing nothing", async () => {
    const me = await owner();
    const someoneElse = await owner();
    const pair = await createPair(database.db, me, "I live in Porto", "Nice!");
    const before = await database.db.select().from(memoryExtractions);

    await expect(
      enqueueExtraction(
        database.db,
        { ...pair, userId: someoneElse.userId, memoryEnabled: true },
        dispatchingTo(runnerWith()),
      ),
    ).rejects.toMatchObject({ code: "not_found:message" });
    await expect(
      enqueueExtraction(
        database.db,
        {
          ...pair,
          userMessageId: pair.assistantMessageId,
          assistantMessageId: pair.userMessageId,
          memoryEnabled: true,
        },
        dispatchingTo(runnerWith()),
      ),
    ).rejects.toMatchObject({ code: "not_found:message" });
    expect(await database.db.select().from(memoryExtractions)).toHaveLength(before.length);
  });

  it("a dispatch failure never throws into the answer: the row says failed, with the reason", async () => {
    const me = await owner();
    const pair = await createPair(database.db, me, "I live in Porto", "Nice!");
    // No INNGEST_EVENT_KEY and no dev mode here: sending is refused, as on a misconfigured server.
    const unreachable = inngestDispatcher(
      createInngestClient({ log: { info() {}, warn() {}, error() {}, debug() {} } }),
    );

    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    try {
      const result = await enqueueExtraction(database.db, { ...pair, memoryEnabled: true }, unreachable);

      expect(result.status).toBe("queued");
      await expect.poll(async () => (await row(result.extractionId)).status).toBe("failed");
      expect(await row(result.extractionId)).toMatchObject({
        runner: "inngest",
        attempts: 0,
        lastError: expect.stringMatching(/^dispatch \(inngest\): .*event key/i),
      });
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({ extractionId: result.extractionId }),
        "could not dispatch an extraction",
      );
    } finally {
      logged.mockRestore();
    }
  });

  it("sends lifeline/message-pair.completed with the row id and a dedup id to Inngest", async () => {
    const me = await owner();
    const pair = await createPair(database.db, me, "I live in Porto", "Nice!");
    const sent: unknown[] = [];
    const fakeInngest: typeof fetch = async (_url, init) => {
      sent.push(...(JSON.parse(String(init?.body)) as unknown[]));
      return Response.json({ ids: ["01J"], status: 200 });
    };
    process.env.INNGEST_EVENT_KEY = "test-key";
    try {
      const client = createInngestClient({ fetch: fakeInngest });
      const result = await enqueueExtraction(database.db, { ...pair, memoryEnabled: true }, inngestDispatcher(client));
      await expect.poll(() => sent.length).toBe(1);
      const queuedAt = (await row(result.extractionId)).queuedAt.getTime();
      expect(sent[0]).toMatchObject({
        name: "lifeline/message-pair.completed",
        data: { extractionId: result.extractionId, userId: me.userId },
        id: `extraction-${result.extractionId}-${queuedAt}`,
      });
      expect(await row(result.extractionId)).toMatchObject({ status: "queued", runner: "inngest" });
    } finally {
      delete process.env.INNGEST_EVENT_KEY;
    }
  });

  it("retries a failed attempt with exponential backoff, recording attempts, next_attempt_at and last_error", async () => {
    const me = await owner();
    const pair = await createQueuedPair(database.db, me, "My favorite color is teal");
    const seen: { status: string; attempts: number; lastError: string | null }[] = [];
    let calls = 0;
    const model = scriptedModel({
      [EXTRACTION_OUTPUT_NAME]: async () => {
        const { status, attempts, lastError } = await row(pair.extraction.id);
        seen.push({ status, attempts, lastError });
        calls += 1;
        return calls <= 2 ? "not json" : null;
      },
    });
    // The retry's timer (FAST: 20 ms) may fire before the test reads the row; the second attempt
    // waits at its start (the runner's deps) until the row as the first failure left it is read.
    const firstFailureRead = gate();
    let attemptsStarted = 0;
    const runner = new InProcessRunner({
      deps: async () => {
        attemptsStarted += 1;
        if (attemptsStarted === 2) await firstFailureRead.promise;
        return testDeps(database.db, { model });
      },
      backoff: FAST,
    });

    await runner.run({ extractionId: pair.extraction.id, userId: me.userId });
    const afterFirst = await row(pair.extraction.id);
    firstFailureRead.open();
    expect(afterFirst).toMatchObject({ status: "queued", attempts: 1, lastError: expect.stringMatching(/^extract: /) });
    const delay = (afterFirst.nextAttemptAt?.getTime() ?? 0) - afterFirst.updatedAt.getTime();
    expect(delay).toBe(FAST.backoffBaseMs);

    await runner.idle();
    expect(seen).toEqual([
      { status: "running", attempts: 0, lastError: null },
      { status: "running", attempts: 1, lastError: expect.stringMatching(/^extract: .*could not parse/) },
      { status: "running", attempts: 2, lastError: expect.stringMatching(/^extract: /) },
    ]);
    expect(await row(pair.extraction.id)).toMatchObject({
      status: "succeeded",
      attempts: 3,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(await contentsOf(me.userId)).toEqual(["Favorite color is teal"]);
  });

  it("gives up after the same number of attempts as Inngest; the user's retry starts afresh", async () => {
    const me = await owner();
    const pair = await createQueuedPair(database.db, me, "My favorite color is teal");
    let broken = true;
    const model = scriptedModel({ [EXTRACTION_OUTPUT_NAME]: () => (broken ? "not json" : null) });
    const runner = runnerWith({ model });

    await runner.run({ extractionId: pair.extraction.id, userId: me.userId });
    await runner.idle();
    expect(await row(pair.extraction.id)).toMatchObject({
      status: "failed",
      attempts: MAX_EXTRACTION_ATTEMPTS,
      nextAttemptAt: null,
      finishedAt: expect.any(Date),
    });
    expect(model.doGenerateCalls).toHaveLength(MAX_EXTRACTION_ATTEMPTS);

    const stranger = await owner();
    await expect(
      retryExtraction(
        database.db,
        { userId: stranger.userId, assistantMessageId: pair.assistantMessageId },
        dispatchingTo(runner),
      ),
    ).rejects.toMatchObject({ code: "not_found:message" });

    broken = false;
    const requeued = await retryExtraction(
      database.db,
      { userId: me.userId, assistantMessageId: pair.assistantMessageId },
      dispatchingTo(runner),
    );
    expect(requeued).toMatchObject({ status: "queued", attempts: 0 });
    await expect.poll(async () => (await row(pair.extraction.id)).status).toBe("succeeded");
    await runner.idle();
    expect(await contentsOf(me.userId)).toEqual(["Favorite color is teal"]);

    await expect(
      retryExtraction(
        database.db,
        { userId: me.userId, assistantMessageId: pair.assistantMessageId },
        dispatchingTo(runner),
      ),
    ).rejects.toMatchObject({ code: "conflict:extraction_not_failed" });
  });

  const switchMemoryOff = (conversationId: string) =>
    database.db.update(conversations).set({ memoryEnabled: false }).where(eq(conversations.id, conversationId));

  it("memory switched off while the extraction waits: the job ends skipped without calling the model", async () => {
    const me = await owner();
    const pair = await createQueuedPair(database.db, me, "I live in Porto");
    await switchMemoryOff(me.conversationId);
    const model = scriptedModel();
    const runner = runnerWith({ model });
    await runner.run({ extractionId: pair.extraction.id, userId: me.userId });
    await runner.idle();
    expect(await row(pair.extraction.id)).toMatchObject({ status: "skipped", finishedAt: expect.any(Date) });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(await contentsOf(me.userId)).toEqual([]);
  });

  it("memory switched off while the model extracts: nothing is stored, the job ends skipped", async () => {
    const me = await owner();
    const pair = await createQueuedPair(database.db, me, "I live in Porto");
    const held = gate();
    const model = scriptedModel({
      [EXTRACTION_OUTPUT_NAME]: async () => {
        await held.promise;
        return null;
      },
    });
    const runner = runnerWith({ model });
    void runner.run({ extractionId: pair.extraction.id, userId: me.userId });
    await expect.poll(() => model.doGenerateCalls.length).toBe(1);
    await switchMemoryOff(me.conversationId);
    held.open();
    await runner.idle();
    expect(await row(pair.extraction.id)).toMatchObject({ status: "skipped" });
    expect(await contentsOf(me.userId)).toEqual([]);
  });

  it("memory switched off between attempts: the retry ends skipped", async () => {
    const me = await owner();
    const pair = await createQueuedPair(database.db, me, "I live in Porto");
    const model = scriptedModel({
      [EXTRACTION_OUTPUT_NAME]: async () => {
        await switchMemoryOff(me.conversationId);
        return "not json";
      },
    });
    const runner = runnerWith({ model });
    await runner.run({ extractionId: pair.extraction.id, userId: me.userId });
    await expect.poll(async () => (await row(pair.extraction.id)).status).toBe("skipped");
    await runner.idle();
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(await contentsOf(me.userId)).toEqual([]);
  });

  it("the user's retry of a failed extraction after memory was switched off ends skipped and runs nothing", async () => {
    const me = await owner();
    const pair = await createQueuedPair(database.db, me, "I live in Porto");
    await database.db
      .update(memoryExtractions)
      .set({ status: "failed", attempts: MAX_EXTRACTION_ATTEMPTS, lastError: "extract: broken" })
      .where(eq(memoryExtractions.id, pair.extraction.id));
    await switchMemoryOff(me.conversationId);
    const calls: string[] = [];
    const retried = await retryExtraction(
      database.db,
      { userId: me.userId, assistantMessageId: pair.assistantMessageId },
      dispatchingTo(runnerWith(), calls),
    );
    expect(retried).toMatchObject({ status: "skipped" });
    expect(await row(pair.extraction.id)).toMatchObject({ status: "skipped" });
    expect(calls).toEqual([]);
  });

  it("runs one job at a time per user, other users' jobs meanwhile", async () => {
    const ada = await owner();
    const bob = await owner();
    const adaFirst = await createQueuedPair(database.db, ada, "I live in Oslo");
    const adaSecond = await createQueuedPair(database.db, ada, "I work at Acme");
    const bobs = await createQueuedPair(database.db, bob, "I live in Rome");
    const held = gate();
    const started: string[] = [];
    const model = scriptedModel({
      [EXTRACTION_OUTPUT_NAME]: async (options) => {
        const said = parseExtractionPrompt(promptText(options))?.userMessage ?? "";
        started.push(said.includes("Oslo") ? "ada-1" : said.includes("Acme") ? "ada-2" : "bob");
        if (said.includes("Oslo")) await held.promise;
        return null;
      },
    });
    const runner = runnerWith({ model });

    void runner.run({ extractionId: adaFirst.extraction.id, userId: ada.userId });
    void runner.run({ extractionId: adaSecond.extraction.id, userId: ada.userId });
    // Bob's job starts once Ada's first is holding (under load it may take a moment to get there).
    for (let i = 0; i < 200 && !started.includes("ada-1"); i++) await new Promise((r) => setTimeout(r, 10));
    await runner.run({ extractionId: bobs.extraction.id, userId: bob.userId });

    expect(started).toEqual(["ada-1", "bob"]);
    expect((await row(adaSecond.extraction.id)).status).toBe("queued");
    held.open();
    await runner.idle();
    expect(started).toEqual(["ada-1", "bob", "ada-2"]);
    expect((await contentsOf(ada.userId)).sort()).toEqual(["Lives in Oslo", "Works at Acme"]);
  });

  it("a fresh process resumes what a stopped one left queued or running; an interrupted attempt counts", async () => {
    const me = await owner();
    const interrupted = await createQueuedPair(database.db, me, "I live in Vienna");
    const waiting = await createQueuedPair(database.db, me, "I work at Initech");
    const lastChance = await createQueuedPair(database.db, me, "My favorite food is ramen");
    const done = await createQueuedPair(database.db, me, "I am allergic to peanuts");
    const at = new Date();
    await database.db
      .update(memoryExtractions)
      .set({ status: "running", startedAt: at })
      .where(eq(memoryExtractions.id, interrupted.extraction.id));
    await database.db
      .update(memoryExtractions)
      .set({ attempts: 1, lastError: "extract: timeout", nextAttemptAt: new Date(at.getTime() - 1000) })
      .where(eq(memoryExtractions.id, waiting.extraction.id));
    await database.db
      .update(memoryExtractions)
      .set({ status: "running", attempts: MAX_EXTRACTION_ATTEMPTS - 1 })
      .where(eq(memoryExtractions.id, lastChance.extraction.id));
    await database.db
      .update(memoryExtractions)
      .set({ status: "succeeded", attempts: 1 })
      .where(eq(memoryExtractions.id, done.extraction.id));

    const fresh = runnerWith(); // a new process: nothing in memory about these jobs
    const pendingBefore = (
      await database.db.select().from(memoryExtractions).where(eq(memoryExtractions.userId, me.userId))
    ).filter((r) => ["queued", "running"].includes(r.status));
    expect(pendingBefore).toHaveLength(3);
    expect(await fresh.resume()).toBeGreaterThanOrEqual(3);
    await fresh.idle();

    expect(await row(interrupted.extraction.id)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(await row(waiting.extraction.id)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(await row(lastChance.extraction.id)).toMatchObject({
      status: "failed",
      attempts: MAX_EXTRACTION_ATTEMPTS,
      lastError: INTERRUPTED_ERROR,
    });
    expect(await row(done.extraction.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect((await contentsOf(me.userId)).sort()).toEqual(["Lives in Vienna", "Works at Initech"]);
  });

  it("resume on start does nothing without an in-process runner or without a database yet", async () => {
    const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;
    expect(await resumeExtractions(env({ INNGEST_DEV: "1" }))).toBe(0);
    expect(await resumeExtractions(env({ LIFELINE_DATA_DIR: "/nonexistent/lifeline-data" }))).toBe(0);
  });
});
