/**
 * The real `extract-memories` Inngest function, run step by step by @inngest/test's
 * InngestTestEngine against a real database (PGlite and Postgres), with models from `ai/test`
 * injected through the job's deps. @inngest/test does not model retries: a retry is a second
 * execution given the earlier steps' results as memoized state — exactly what Inngest replays.
 */
import { InngestTestEngine, mockCtx } from "@inngest/test";
import { and, asc, eq } from "drizzle-orm";
import { InngestExecutionEngine } from "inngest/internals";
import { describe, expect, it } from "vitest";
import { retrievalConfig } from "@/core/config";
import type { Db } from "@/db/client";
import { getExtraction } from "@/db/queries/extractions";
import { confirmMemory } from "@/db/queries/memories";
import { memories, memoryEvents, memoryExtractions } from "@/db/schema";
import { MAX_EXTRACTION_ATTEMPTS } from "@/lib/jobs/extraction-job";
import { createInngestClient } from "@/lib/jobs/inngest-client";
import { CONSOLIDATION_OUTPUT_NAME } from "@/lib/memory/extraction/consolidation-schema";
import { EXTRACTION_OUTPUT_NAME } from "@/lib/memory/extraction/schema";
import { retrieveSemantic } from "@/lib/memory/retrieval/retrieve";
import { embedOffline } from "@/lib/offline/embedder";
import { DB_KINDS } from "@/tests/db";
import {
  createConversation,
  createQueuedPair,
  createUser,
  embedWith,
  mockEmbeddingModel,
  promptText,
  scriptedModel,
  testDeps,
} from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";
import { createExtractMemoriesFunction } from "./extract-memories";

type Deps = ReturnType<typeof testDeps>;
type QueuedPair = Awaited<ReturnType<typeof createQueuedPair>>;

const STEPS = ["load-pair", "extract", "embed", "consolidate", "store"] as const;

/** Failed steps are what these tests are about: Inngest's error log of each is noise here. */
const quiet = () => {};
const client = createInngestClient({ log: { info: quiet, warn: quiet, error: quiet, debug: quiet } });

function engine(deps: Deps, options: { attempt?: number } = {}) {
  return new InngestTestEngine({
    function: createExtractMemoriesFunction(async () => deps, client),
    ...(options.attempt !== undefined
      ? { transformCtx: (ctx) => ({ ...mockCtx(ctx), attempt: options.attempt }) as typeof ctx }
      : {}),
  });
}

function eventOf(pair: QueuedPair) {
  return [
    { name: "lifeline/message-pair.completed", data: { extractionId: pair.extraction.id, userId: pair.userId } },
  ] as [{ name: string; data: Record<string, unknown> }];
}

/** The results of `ids` in a finished execution, as Inngest would replay them to the retry. */
async function memoized(state: Record<string, Promise<unknown>>, ids: readonly string[]) {
  return Promise.all(
    ids.map(async (id) => {
      const data = await state[InngestExecutionEngine._internals.hashId(id)];
      return { id, handler: () => data };
    }),
  );
}

function callNames(model: ReturnType<typeof scriptedModel>): string[] {
  return model.doGenerateCalls.map((call) =>
    call.responseFormat?.type === "json" ? (call.responseFormat.name ?? "") : "text",
  );
}

/** Every transaction runs to its end and then fails, `times` times: a commit the database refuses. */
function failingCommits(db: Db, times: number): Db {
  let left = times;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "transaction") {
        return async (fn: (tx: Db) => Promise<unknown>) =>
          target.transaction(async (tx) => {
            const result = await fn(tx as Db);
            if (left > 0) {
              left -= 1;
              throw new Error("could not serialize access due to concurrent update");
            }
            return result;
          });
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.each(DB_KINDS)("extract-memories (Inngest function) on %s", (kind) => {
  const database = useTestDatabase(kind);
  let userId = "";
  let conversationId = "";

  const freshUser = async () => {
    userId = await createUser(database.db);
    conversationId = await createConversation(database.db, userId);
    return { userId, conversationId };
  };
  const memoriesOf = (user: string) =>
    database.db
      .select()
      .from(memories)
      .where(eq(memories.userId, user))
      .orderBy(asc(memories.createdAt), asc(memories.content));
  const row = async (pair: QueuedPair) => {
    const extraction = await getExtraction(database.db, { extractionId: pair.extraction.id });
    if (!extraction) throw new Error("extraction row vanished");
    return extraction;
  };

  it("runs load-pair → extract → embed → consolidate → store and stores user-stated memories with provenance", async () => {
    const owner = await freshUser();
    const earlier = await createQueuedPair(database.db, owner, "Hi there", "Hello! How can I help?");
    const pair = await createQueuedPair(
      database.db,
      owner,
      "I prefer green tea and my sister's name is Maya",
      "Lovely — green tea it is.",
    );
    const model = scriptedModel();

    const { result, error, ctx } = await engine(testDeps(database.db, { model })).execute({ events: eventOf(pair) });

    expect(error).toBeUndefined();
    expect(result).toMatchObject({ status: "succeeded", alreadyStored: false });
    expect(ctx.step.run.mock.calls.map(([id]) => id)).toEqual([...STEPS]);

    const stored = await memoriesOf(owner.userId);
    expect(stored.map((m) => m.content).sort()).toEqual(["Prefers green tea", "Sister's name is Maya"]);
    for (const memory of stored) {
      expect(memory).toMatchObject({
        provenance: "user_stated",
        status: "active",
        sourceConversationId: owner.conversationId,
        sourceUserMessageId: pair.userMessageId,
        sourceAssistantMessageId: pair.assistantMessageId,
        embeddingModel: "offline/hash-ngram-v1",
        confidence: 0.9,
      });
      expect(memory.examinedMessageIds).toEqual([
        earlier.userMessageId,
        earlier.assistantMessageId,
        pair.userMessageId,
        pair.assistantMessageId,
      ]);
      expect(memory.evidence).toEqual([{ role: "user", quote: expect.any(String) }]);
      expect(memory.embedding).toHaveLength(1536);
    }
    expect(stored.find((m) => m.content === "Prefers green tea")?.evidence[0]?.quote).toBe("I prefer green tea");

    const extraction = await row(pair);
    expect(extraction).toMatchObject({ status: "succeeded", attempts: 1, lastError: null, runner: "inngest" });
    expect([...extraction.memoryIds].sort()).toEqual(stored.map((m) => m.id).sort());
    expect(extraction.decisions).toHaveLength(2);
    expect(extraction.decisions).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: "add", decidedBy: "rule", targetId: null })]),
    );
    expect(extraction.finishedAt).toBeInstanceOf(Date);

    const events = await database.db.select().from(memoryEvents).where(eq(memoryEvents.userId, owner.userId));
    expect(events).toHaveLength(2);
    for (const event of events) {
      expect(event).toMatchObject({
        action: "create",
        actor: "extraction",
        extractionId: pair.extraction.id,
        before: null,
      });
      expect(event.after).toMatchObject({ status: "active" });
    }
    // The extraction prompt carried the date and the earlier exchange (context, not re-extracted).
    const [extractCall] = model.doGenerateCalls;
    if (!extractCall) throw new Error("the model was not called");
    const prompt = promptText(extractCall);
    expect(prompt).toMatch(/^Current date: \d{4}-\d{2}-\d{2} \((?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\)$/m);
    expect(prompt).toContain("assistant: Hello! How can I help?");
  });

  it("nothing worth keeping: succeeded with no memory, without embedding or consolidating", async () => {
    const owner = await freshUser();
    const pair = await createQueuedPair(database.db, owner, "What's the capital of France?", "Paris.");
    const { result, ctx } = await engine(testDeps(database.db)).execute({ events: eventOf(pair) });

    expect(result).toMatchObject({ status: "succeeded", memoryIds: [] });
    expect(ctx.step.run.mock.calls.map(([id]) => id)).toEqual(["load-pair", "extract", "store"]);
    expect(await memoriesOf(owner.userId)).toEqual([]);
    expect(await row(pair)).toMatchObject({ status: "succeeded", memoryIds: [], attempts: 1 });
  });

  it("malformed model output is a failed attempt (not 'no memory'), and the retry succeeds", async () => {
    const owner = await freshUser();
    const pair = await createQueuedPair(database.db, owner, "My dog's name is Rex", "Hi Rex!");
    const broken = scriptedModel({ [EXTRACTION_OUTPUT_NAME]: () => '{"memories": [{"title": "Dog' });

    const first = await engine(testDeps(database.db, { model: broken })).execute({ events: eventOf(pair) });
    expect(first.error).toMatchObject({ name: "MalformedOutputError" });
    expect(await row(pair)).toMatchObject({
      status: "queued",
      attempts: 1,
      nextAttemptAt: null, // Inngest schedules its own retry
      lastError: expect.stringMatching(
        /^extract: The model's "memory_extraction" output was malformed: could not parse/,
      ),
    });
    expect(await memoriesOf(owner.userId)).toEqual([]);

    const retry = await engine(testDeps(database.db), { attempt: 1 }).execute({
      events: eventOf(pair),
      steps: await memoized(first.state, ["load-pair"]),
    });
    expect(retry.result).toMatchObject({ status: "succeeded" });
    expect((await memoriesOf(owner.userId)).map((m) => m.content)).toEqual(["Dog's name is Rex"]);
    expect(await row(pair)).toMatchObject({ status: "succeeded", attempts: 2, lastError: null });
  });

  it("output that does not match the schema, on the last attempt, fails for good and stops Inngest's retries", async () => {
    const owner = await freshUser();
    const pair = await createQueuedPair(database.db, owner, "I live in Berlin", "Nice city.");
    await database.db
      .update(memoryExtractions)
      .set({ attempts: MAX_EXTRACTION_ATTEMPTS - 1 })
      .where(eq(memoryExtractions.id, pair.extraction.id));
    const invalid = scriptedModel({ [EXTRACTION_OUTPUT_NAME]: () => '{"memories": [{"title": 42}]}' });

    const { error } = await engine(testDeps(database.db, { model: invalid }), {
      attempt: MAX_EXTRACTION_ATTEMPTS - 1,
    }).execute({
      events: eventOf(pair),
    });

    expect(error).toMatchObject({ name: "NonRetriableError", message: expect.stringContaining("giving up") });
    const extraction = await row(pair);
    expect(extraction).toMatchObject({ status: "failed", attempts: MAX_EXTRACTION_ATTEMPTS, nextAttemptAt: null });
    expect(extraction.lastError).toMatch(/^extract: .*did not match schema \(memories\.0\.title: /);
    expect(extraction.finishedAt).toBeInstanceOf(Date);
    expect(await memoriesOf(owner.userId)).toEqual([]);
  });

  it("an embedding failure is a failed attempt of the embed step", async () => {
    const owner = await freshUser();
    const pair = await createQueuedPair(database.db, owner, "I work at Acme", "Good to know.");
    const down = mockEmbeddingModel(() => new Error("embedding service unavailable (503)"));

    const { error, ctx } = await engine(testDeps(database.db, { embed: embedWith(down) })).execute({
      events: eventOf(pair),
    });

    expect(error).toMatchObject({ message: expect.stringContaining("embedding service unavailable") });
    expect(ctx.step.run.mock.calls.map(([id]) => id)).toEqual(["load-pair", "extract", "embed"]);
    expect(await row(pair)).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: "embed: embedding service unavailable (503)",
    });
    expect(await memoriesOf(owner.userId)).toEqual([]);
  });

  it("a database failure in the store step rolls back, is retried with the memoized plan, and stores once", async () => {
    const owner = await freshUser();
    const pair = await createQueuedPair(database.db, owner, "I am allergic to peanuts", "I'll keep that in mind.");
    const model = scriptedModel();

    const first = await engine(testDeps(failingCommits(database.db, 1), { model })).execute({ events: eventOf(pair) });
    expect(first.error).toMatchObject({ message: "could not serialize access due to concurrent update" });
    expect(await memoriesOf(owner.userId)).toEqual([]); // the memory inserted inside the transaction was rolled back
    expect(await row(pair)).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: "store: could not serialize access due to concurrent update",
    });

    const retry = await engine(testDeps(database.db, { model }), { attempt: 1 }).execute({
      events: eventOf(pair),
      steps: await memoized(first.state, ["load-pair", "extract", "embed", "consolidate"]),
    });
    expect(retry.result).toMatchObject({ status: "succeeded", alreadyStored: false });
    expect(callNames(model)).toEqual([EXTRACTION_OUTPUT_NAME]); // the model was not asked again
    expect((await memoriesOf(owner.userId)).map((m) => m.content)).toEqual(["Is allergic to peanuts"]);
    expect(await row(pair)).toMatchObject({ status: "succeeded", attempts: 2, lastError: null });
  });

  it("a redelivered event, or two runs at once, never create a second memory", async () => {
    const owner = await freshUser();
    const pair = await createQueuedPair(database.db, owner, "My favorite color is teal", "Teal is great.");
    const deps = testDeps(database.db);

    const first = await engine(deps).execute({ events: eventOf(pair) });
    expect(first.result).toMatchObject({ status: "succeeded" });
    const redelivered = await engine(deps).execute({ events: eventOf(pair) });
    expect(redelivered.result).toEqual({ extractionId: pair.extraction.id, status: "not-runnable" });
    expect(redelivered.ctx.step.run.mock.calls.map(([id]) => id)).toEqual(["load-pair"]);

    const twin = await createQueuedPair(database.db, owner, "My favorite food is ramen", "Yum.");
    const both = await Promise.all([
      engine(deps).execute({ events: eventOf(twin) }),
      engine(deps).execute({ events: eventOf(twin) }),
    ]);
    expect(both.map((run) => run.error)).toEqual([undefined, undefined]);

    const stored = await memoriesOf(owner.userId);
    expect(stored.map((m) => m.content).sort()).toEqual(["Favorite color is teal", "Favorite food is ramen"]);
    expect(await row(pair)).toMatchObject({
      status: "succeeded",
      attempts: 1,
      memoryIds: [stored.find((m) => m.content.includes("teal"))?.id],
    });
  });

  it("a contradiction supersedes the old memory (kept, linked, never deleted) and writes both events", async () => {
    const owner = await freshUser();
    const model = scriptedModel();
    const deps = testDeps(database.db, { model });
    const maya = await createQueuedPair(database.db, owner, "My sister's name is Maya", "Nice name!");
    await engine(deps).execute({ events: eventOf(maya) });
    const mia = await createQueuedPair(database.db, owner, "Actually, my sister's name is Mia", "Sorry — Mia it is.");

    const { result } = await engine(deps).execute({ events: eventOf(mia) });

    expect(result).toMatchObject({ status: "succeeded" });
    expect(callNames(model)).toEqual([EXTRACTION_OUTPUT_NAME, EXTRACTION_OUTPUT_NAME, CONSOLIDATION_OUTPUT_NAME]);
    const [old, replacement] = await memoriesOf(owner.userId);
    expect(old).toMatchObject({
      content: "Sister's name is Maya",
      status: "superseded",
      supersededById: replacement?.id,
    });
    expect(replacement).toMatchObject({ content: "Sister's name is Mia", status: "active", supersededById: null });

    const decisions = (await row(mia)).decisions;
    expect(decisions).toEqual([
      expect.objectContaining({
        action: "supersede",
        targetId: old?.id,
        memoryId: replacement?.id,
        decidedBy: "model",
        near: [expect.objectContaining({ id: old?.id, similarity: expect.any(Number) })],
      }),
    ]);

    const events = await database.db
      .select()
      .from(memoryEvents)
      .where(and(eq(memoryEvents.userId, owner.userId), eq(memoryEvents.extractionId, mia.extraction.id)));
    expect(events).toHaveLength(2);
    expect(events.find((e) => e.memoryId === old?.id)).toMatchObject({
      action: "supersede",
      actor: "extraction",
      before: { status: "active", content: "Sister's name is Maya", supersededById: null },
      after: { status: "superseded", supersededById: replacement?.id },
    });
    expect(events.find((e) => e.memoryId === replacement?.id)).toMatchObject({
      action: "create",
      before: null,
      after: { status: "active", content: "Sister's name is Mia" },
    });

    // Retrieval only ever sees the new value.
    const found = await retrieveSemantic(database.db, {
      userId: owner.userId,
      embedding: embedOffline("What is my sister's name?"),
      now: new Date(),
      config: retrievalConfig,
    });
    expect(found.candidates.map((c) => c.content)).toEqual(["Sister's name is Mia"]);
  });

  it("a fact seen again is skipped: no new memory, an event on the known one", async () => {
    const owner = await freshUser();
    const deps = testDeps(database.db);
    const first = await createQueuedPair(database.db, owner, "I live in Lisbon", "Lovely city.");
    await engine(deps).execute({ events: eventOf(first) });
    const again = await createQueuedPair(database.db, owner, "Yes, I live in Lisbon", "Yes, you did.");

    const { result } = await engine(deps).execute({ events: eventOf(again) });

    expect(result).toMatchObject({ status: "succeeded", memoryIds: [] });
    const [only, ...rest] = await memoriesOf(owner.userId);
    expect(rest).toEqual([]);
    expect((await row(again)).decisions).toEqual([
      expect.objectContaining({ action: "skip", targetId: only?.id, memoryId: only?.id }),
    ]);
    const [event] = await database.db
      .select()
      .from(memoryEvents)
      .where(eq(memoryEvents.extractionId, again.extraction.id));
    expect(event).toMatchObject({
      memoryId: only?.id,
      action: "update",
      before: event?.after,
      reason: expect.stringMatching(/^skip: /),
    });
  });

  it("an assistant-only suggestion is stored pending and is not retrieved until the user confirms it", async () => {
    const owner = await freshUser();
    const suggestion = JSON.stringify({
      memories: [
        {
          title: "Tea suggestion",
          content: "Might enjoy jasmine green tea",
          type: "preference",
          importance: 0.4,
          tags: ["tea"],
          confidence: 0.5,
          isActionable: false,
          deadline: null,
          evidence: [{ role: "assistant", quote: "you might enjoy jasmine green tea" }],
        },
      ],
    });
    const pair = await createQueuedPair(database.db, owner, "Any drink ideas?", "You might enjoy jasmine green tea.");
    await engine(
      testDeps(database.db, { model: scriptedModel({ [EXTRACTION_OUTPUT_NAME]: () => suggestion }) }),
    ).execute({
      events: eventOf(pair),
    });

    const [memory] = await memoriesOf(owner.userId);
    expect(memory).toMatchObject({ provenance: "assistant_suggested", status: "pending_confirmation" });
    const query = {
      userId: owner.userId,
      embedding: embedOffline("Tea suggestion: jasmine green tea"),
      now: new Date(),
      config: retrievalConfig,
    };
    expect((await retrieveSemantic(database.db, query)).candidates).toEqual([]);

    await confirmMemory(database.db, { userId: owner.userId, memoryId: memory?.id ?? "" });
    expect((await retrieveSemantic(database.db, query)).candidates.map((c) => c.id)).toEqual([memory?.id]);
  });
});
