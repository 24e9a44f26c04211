/**
 * The extraction outbox against real databases (PGlite and Postgres): a chat turn's answer and its
 * extraction row commit together, so a process that stops right after the response (its after()
 * work never runs) still leaves the row `queued`, which the outbox sweep hands over once it is
 * older than the bound, and its title job, which the title sweep runs; the interrupted-answer sweep, run outside any request with Next's after()
 * as the process's scheduler, hands its extractions over; and the Inngest `sweeps` function
 * (cron) runs the sweeps and sends the events.
 */

import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONVERSATION_TITLE, extractionConfig, titleConfig } from "@/core/config";
import { logger } from "@/core/logger";
import { getExtraction, getExtractionForMessage } from "@/db/queries/extractions";
import { redactDueDeletions } from "@/db/queries/redaction";
import { conversations, conversationTitleJobs, memoryExtractions, messages } from "@/db/schema";
import { functions } from "@/inngest/functions";
import { createSweepsFunction, SWEEPS_CRON } from "@/inngest/functions/sweeps";
import { recoverInterruptedSends } from "@/lib/agent/approval";
import { createAiRegistry } from "@/lib/ai/registry";
import { recoverInterruptedAnswers } from "@/lib/chat/interrupted";
import { titleStaleConversations } from "@/lib/chat/title";
import { createInngestClient } from "@/lib/jobs/inngest-client";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createPair, createQueuedPair, createUser } from "@/tests/fixtures/jobs";
import { registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";
import {
  afterResponseIdle,
  type BackgroundScheduler,
  detachedScheduler,
  nextAfterScheduler,
  setBackgroundScheduler,
} from "./after-response";
import { dispatchUndispatchedExtractions, type ExtractionDispatcher, inngestDispatcher } from "./extraction-queue";
import { dispatchStalledImports, inngestImportDispatcher } from "./import-runner";

process.env.AUTH_SECRET ??= "outbox-test-secret-0123456789abcdef";
process.env.LIFELINE_CHAT_RATE_LIMIT = "off";
process.env.LIFELINE_OFFLINE_DELAY_MS = "0";

/** A dispatcher that records what it was handed and runs nothing. */
function recordingDispatcher(kind: ExtractionDispatcher["kind"] = "in-process") {
  const handed: string[] = [];
  const dispatcher: ExtractionDispatcher = {
    kind,
    dispatch: async ({ extractionId }) => {
      handed.push(extractionId);
    },
  };
  return { dispatcher, handed };
}

/** Inngest's event API, recorded: what a client made with it sends (the event key is read when the client is made). */
function recordingInngest() {
  const sent: { name: string; id?: string; data: Record<string, unknown> }[] = [];
  process.env.INNGEST_EVENT_KEY = "test-key";
  const client = createInngestClient({
    fetch: async (_url, init) => {
      sent.push(...(JSON.parse(String(init?.body)) as typeof sent));
      return Response.json({ ids: sent.map((_, i) => `01J${i}`), status: 200 });
    },
  });
  return { client, sent };
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe.each(DB_KINDS)("the extraction outbox on %s", (kind) => {
  const context = useTestServer(kind);
  const db = () => context.database.db;
  afterEach(async () => {
    delete process.env.INNGEST_EVENT_KEY;
    setBackgroundScheduler(detachedScheduler);
    await afterResponseIdle();
  });

  it("commits a finished answer with its queued extraction: a process gone right after the response leaves the row for the sweep", async () => {
    // The process dies once the response is sent: nothing handed to the scheduler ever runs.
    const dropped: BackgroundScheduler = () => {};
    setBackgroundScheduler(dropped);
    const user = await registerAndSignIn(context.server.url, `outbox-${kind}`);
    const res = await fetch(`${context.server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: user.client.cookieHeader() },
      body: JSON.stringify({ message: { text: "I keep bees on my roof" } }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const conversationId = res.headers.get("x-conversation-id") ?? "";
    const [answer] = await db()
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .then((rows) => rows.filter((m) => m.role === "assistant"));
    expect(answer?.status).toBe("complete");
    const extraction = await getExtractionForMessage(db(), { userId: user.id, assistantMessageId: answer?.id ?? "" });
    expect(extraction).toMatchObject({ status: "queued", attempts: 0, runner: "in-process" });

    // Younger than the bound: it may still be on its way to the runner; older: the sweep hands it over.
    const { dispatcher, handed } = recordingDispatcher();
    expect(await dispatchUndispatchedExtractions(db(), dispatcher, { now: new Date() })).toBe(0);
    const later = new Date(Date.now() + extractionConfig.redispatchAfterMs + 1_000);
    expect(await dispatchUndispatchedExtractions(db(), dispatcher, { now: later })).toBeGreaterThanOrEqual(1);
    expect(handed).toContain(extraction.id);

    // The title job committed with the answer too; the title sweep runs it once it is older than its bound.
    const titleJob = () =>
      db().select().from(conversationTitleJobs).where(eq(conversationTitleJobs.conversationId, conversationId));
    const title = async () =>
      (await db().select().from(conversations).where(eq(conversations.id, conversationId)))[0]?.title;
    expect(await titleJob()).toHaveLength(1);
    expect(await title()).toBe(DEFAULT_CONVERSATION_TITLE);
    const ai = createAiRegistry({});
    await titleStaleConversations(db(), ai, { now: new Date(), log: logger });
    expect(await titleJob()).toHaveLength(1);
    await titleStaleConversations(db(), ai, {
      now: new Date(Date.now() + titleConfig.retryAfterMs + 1_000),
      log: logger,
    });
    expect(await titleJob()).toEqual([]);
    expect(await title()).not.toBe(DEFAULT_CONVERSATION_TITLE);
  });

  it("leaves to their runner the rows it attempted or will retry, and skips what is not queued", async () => {
    const userId = await createUser(db());
    const owner = { userId, conversationId: await createConversation(db(), userId) };
    const stale = await createQueuedPair(db(), owner, "I play the oboe");
    const retrying = await createQueuedPair(db(), owner, "I live in Porto");
    const done = await createQueuedPair(db(), owner, "I like figs");
    await db()
      .update(memoryExtractions)
      .set({ queuedAt: minutesAgo(10), updatedAt: minutesAgo(10) })
      .where(eq(memoryExtractions.id, stale.extraction.id));
    // Queued long ago, but its retry is due in the future: its runner has it.
    await db()
      .update(memoryExtractions)
      .set({
        queuedAt: minutesAgo(10),
        updatedAt: minutesAgo(10),
        attempts: 1,
        nextAttemptAt: new Date(Date.now() + 60_000),
      })
      .where(eq(memoryExtractions.id, retrying.extraction.id));
    await db()
      .update(memoryExtractions)
      .set({ status: "succeeded", queuedAt: minutesAgo(10), updatedAt: minutesAgo(10) })
      .where(eq(memoryExtractions.id, done.extraction.id));
    const { dispatcher, handed } = recordingDispatcher();
    await dispatchUndispatchedExtractions(db(), dispatcher, { now: new Date() });
    expect(handed).toContain(stale.extraction.id);
    expect(handed).not.toContain(retrying.extraction.id);
    expect(handed).not.toContain(done.extraction.id);
  });

  /** An answer a stopped process left `streaming` for ten minutes. */
  async function interruptedAnswer(text: string) {
    const userId = await createUser(db());
    const pair = await createPair(
      db(),
      { userId, conversationId: await createConversation(db(), userId) },
      text,
      "Part",
    );
    await db()
      .update(messages)
      .set({ status: "streaming", updatedAt: minutesAgo(10) })
      .where(eq(messages.id, pair.assistantMessageId));
    return pair;
  }

  it("an interrupted answer's extraction is handed over by the sweep itself, outside any request, with Next's after() as the scheduler", async () => {
    // The app's scheduler: after() needs a request scope, which a sweep started by a timer never has.
    setBackgroundScheduler(nextAfterScheduler);
    const pair = await interruptedAnswer("My sister is called Maya");
    const { dispatcher, handed } = recordingDispatcher();
    expect(
      await recoverInterruptedAnswers(db(), { dispatcher, now: () => new Date(), log: logger }),
    ).toBeGreaterThanOrEqual(1);
    const extraction = await getExtractionForMessage(db(), {
      userId: pair.userId,
      assistantMessageId: pair.assistantMessageId,
    });
    expect(extraction.status).toBe("queued");
    // Handed over by the time the sweep resolves: nothing was left to a request's after().
    expect(handed).toContain(extraction.id);
    const [answer] = await db().select().from(messages).where(eq(messages.id, pair.assistantMessageId));
    expect(answer).toMatchObject({ status: "error", error: expect.stringMatching(/interrupted/) });
  });

  it("the Inngest sweeps function runs every minute: interrupted answers and undelivered rows become events", async () => {
    const interrupted = await interruptedAnswer("I run marathons");
    const userId = await createUser(db());
    const undelivered = await createQueuedPair(
      db(),
      { userId, conversationId: await createConversation(db(), userId) },
      "I grow tomatoes",
    );
    await db()
      .update(memoryExtractions)
      .set({ queuedAt: minutesAgo(10), updatedAt: minutesAgo(10) })
      .where(eq(memoryExtractions.id, undelivered.extraction.id));
    const { client, sent } = recordingInngest();
    const dispatcher = inngestDispatcher(client);
    const engine = new InngestTestEngine({
      function: createSweepsFunction(() => ({
        interruptedAnswers: () => recoverInterruptedAnswers(db(), { dispatcher, now: () => new Date(), log: logger }),
        interruptedSends: () => recoverInterruptedSends(db(), { now: () => new Date(), log: logger }),
        undispatchedExtractions: () => dispatchUndispatchedExtractions(db(), dispatcher, { now: new Date() }),
        stalledImports: () => dispatchStalledImports(db(), inngestImportDispatcher(client), { now: new Date() }),
        untitledConversations: () =>
          titleStaleConversations(db(), createAiRegistry({}), { now: new Date(), log: logger }),
        dueRedactions: () => redactDueDeletions(db(), { now: new Date(), batch: 50 }),
      })),
    });
    const { result } = await engine.execute({
      events: [{ name: "inngest/scheduled.timer", data: { cron: SWEEPS_CRON } }],
    });
    expect(result).toMatchObject({
      interruptedAnswers: expect.any(Number),
      undispatchedExtractions: expect.any(Number),
      stalledImports: expect.any(Number),
      dueRedactions: expect.any(Number),
    });

    const interruptedRow = await getExtractionForMessage(db(), {
      userId: interrupted.userId,
      assistantMessageId: interrupted.assistantMessageId,
    });
    const undeliveredRow = await getExtraction(db(), { extractionId: undelivered.extraction.id });
    const events = sent.filter((event) => event.name === "lifeline/message-pair.completed");
    for (const row of [interruptedRow, undeliveredRow]) {
      expect(events).toContainEqual(
        expect.objectContaining({
          id: `extraction-${row?.id}-${row?.queuedAt.getTime()}`,
          data: { extractionId: row?.id, userId: row?.userId },
        }),
      );
    }
  });
});

describe("the Inngest functions Lifeline serves", () => {
  it("include the sweeps, on a cron trigger every minute", () => {
    const sweeps = functions.find((fn) => fn.id() === "sweeps");
    expect(sweeps?.opts.triggers).toEqual([{ cron: SWEEPS_CRON }]);
  });
});
