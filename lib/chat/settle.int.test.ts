/**
 * Saving how an answer ended, against real databases (PGlite and Postgres): a final save that meets
 * a transient database error (a connection the server ended, a serialization failure) is retried,
 * so a finished answer is stored whole and never left to the interrupted-answer sweep.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONVERSATION_TITLE, titleConfig } from "@/core/config";
import { logger } from "@/core/logger";
import type { Db } from "@/db/client";
import { getExtractionForMessage } from "@/db/queries/extractions";
import { createMessages } from "@/db/queries/messages";
import { conversations, conversationTitleJobs, messages } from "@/db/schema";
import { type AiRegistry, createAiRegistry } from "@/lib/ai/registry";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import type { ExtractionDispatcher } from "@/lib/jobs/extraction-queue";
import type { ContextTrace } from "@/lib/memory/retrieval/trace";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createUser, gate, scriptedModel } from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";
import { recoverInterruptedAnswers } from "./interrupted";
import { type AnswerTurn, settleAnswer } from "./settle";
import { titleStaleConversations } from "./title";
import { TITLE_OUTPUT_NAME } from "./title-prompt";

/** `db`, except that its first `failures` transactions fail with `error` once their work is done (so they roll back). */
function failingTransactions(db: Db, failures: number, error: () => Error): { db: Db; attempts: () => number } {
  let attempts = 0;
  const proxy = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "transaction") return Reflect.get(target, property, receiver);
      return (work: (tx: Db) => Promise<unknown>, ...rest: unknown[]) =>
        (target.transaction as (...args: unknown[]) => Promise<unknown>)(
          async (tx: Db) => {
            const result = await work(tx);
            attempts += 1;
            if (attempts <= failures) throw error();
            return result;
          },
          ...rest,
        );
    },
  });
  return { db: proxy, attempts: () => attempts };
}

const connectionEnded = () =>
  Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
const uniqueViolation = () =>
  Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: "23505" });

describe.each(DB_KINDS)("settling an answer on %s", (kind) => {
  const database = useTestDatabase(kind);
  afterEach(() => afterResponseIdle());

  /** A question and its answer's streaming row with its progress so far, as a chat turn leaves them. */
  async function streamingTurn(
    db: Db,
    { dispatch, ai = createAiRegistry({}) }: { dispatch?: ExtractionDispatcher["dispatch"]; ai?: AiRegistry } = {},
  ) {
    const userId = await createUser(database.db);
    const conversationId = await createConversation(database.db, userId);
    const [question, answer] = await createMessages(database.db, {
      userId,
      conversationId,
      messages: [
        { role: "user", content: "I keep bees on my roof" },
        { role: "assistant", content: "Bees on a ro", status: "streaming" },
      ],
    });
    if (!question || !answer) throw new Error("no messages written");
    const handed: string[] = [];
    const dispatcher: ExtractionDispatcher = {
      kind: "in-process",
      dispatch: async (job) => {
        handed.push(job.extractionId);
        await dispatch?.(job);
      },
    };
    const turn: AnswerTurn = {
      db,
      ai,
      log: logger,
      dispatcher,
      userId,
      conversation: { id: conversationId, memoryEnabled: true },
      userMessageId: question.id,
      assistantMessageId: answer.id,
      modelId: "offline",
      mode: "conversational",
      temperature: 0.7,
      trace: { status: "disabled", error: null } as ContextTrace,
      dictation: null,
      signal: new AbortController().signal,
      endTurn: () => {},
      metadata: {
        conversationId,
        userMessageId: question.id,
        assistantMessageId: answer.id,
        model: "offline",
        mode: "conversational",
        retrievalStatus: "disabled",
      },
    };
    return { turn, handed };
  }

  const input = { modelInput: [], trace: null, provider: "offline", modelId: "offline" };
  const complete = {
    status: "complete" as const,
    text: "Bees on a roof need water nearby.",
    parts: [{ type: "text", text: "Bees on a roof need water nearby." }],
    timeToFirstTokenMs: 10,
    latencyMs: 20,
  };
  const stored = async (messageId: string) =>
    (await database.db.select().from(messages).where(eq(messages.id, messageId)))[0];

  it("retries a final save that met a transient database error: the answer is stored whole, extracted once, never interrupted", async () => {
    const faulty = failingTransactions(database.db, 2, connectionEnded);
    const { turn, handed } = await streamingTurn(faulty.db);
    await settleAnswer(turn, input, complete);
    await afterResponseIdle();

    expect(faulty.attempts()).toBe(3);
    expect(await stored(turn.assistantMessageId)).toMatchObject({ status: "complete", content: complete.text });
    const extraction = await getExtractionForMessage(database.db, {
      userId: turn.userId,
      assistantMessageId: turn.assistantMessageId,
    });
    expect(extraction).toMatchObject({ status: "queued", userMessageId: turn.userMessageId });
    expect(handed).toEqual([extraction.id]);

    const later = new Date(Date.now() + 60 * 60_000);
    await recoverInterruptedAnswers(database.db, { dispatcher: turn.dispatcher, now: () => later, log: logger });
    expect(await stored(turn.assistantMessageId)).toMatchObject({ status: "complete", content: complete.text });
  });

  it("does not retry an error that would fail again", async () => {
    const faulty = failingTransactions(database.db, 1, uniqueViolation);
    const { turn, handed } = await streamingTurn(faulty.db);
    await settleAnswer(turn, input, complete);
    await afterResponseIdle();
    expect(faulty.attempts()).toBe(1);
    expect(await stored(turn.assistantMessageId)).toMatchObject({ status: "streaming" });
    expect(handed).toEqual([]);
  });

  const titleOf = async (conversationId: string) =>
    (await database.db.select().from(conversations).where(eq(conversations.id, conversationId)))[0]?.title;

  it("titles the conversation right after the answer, without waiting for the user's extractions", async () => {
    // The in-process runner's hand-over resolves when the attempt has ended, after the user's earlier jobs.
    const lane = gate();
    const { turn } = await streamingTurn(database.db, { dispatch: () => lane.promise });
    try {
      await settleAnswer(turn, input, complete);
      await expect.poll(() => titleOf(turn.conversation.id)).not.toBe(DEFAULT_CONVERSATION_TITLE);
    } finally {
      lane.open();
    }
  });

  it("the title sweep leaves a title job that is running to its run: one title call", async () => {
    const held = gate();
    const model = scriptedModel({
      [TITLE_OUTPUT_NAME]: async () => {
        await held.promise;
        return null;
      },
    });
    const ai = { ...createAiRegistry({}), getExtractionModel: () => model };
    const { turn } = await streamingTurn(database.db, { ai });
    await settleAnswer(turn, input, complete);
    await expect.poll(() => model.doGenerateCalls.length).toBe(1);
    // Long after the answer: a job still waiting then was left by a stopped process — not this one.
    const later = new Date(Date.now() + titleConfig.retryAfterMs + 5_000);
    const swept = titleStaleConversations(database.db, ai, { now: later, log: logger });
    await new Promise((resolve) => setTimeout(resolve, 100));
    held.open();
    expect(await swept).toBe(0);
    await afterResponseIdle();
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(await titleOf(turn.conversation.id)).not.toBe(DEFAULT_CONVERSATION_TITLE);
    expect(
      await database.db
        .select()
        .from(conversationTitleJobs)
        .where(eq(conversationTitleJobs.conversationId, turn.conversation.id)),
    ).toEqual([]);
  });

  it("a late finish of an answer the interrupted-answer sweep already settled is refused: the stored answer and its extraction stay as the sweep left them", async () => {
    const { turn, handed } = await streamingTurn(database.db);
    const later = new Date(Date.now() + 60 * 60_000);
    await recoverInterruptedAnswers(database.db, { dispatcher: turn.dispatcher, now: () => later, log: logger });
    const swept = await stored(turn.assistantMessageId);
    expect(swept).toMatchObject({ status: "error" });
    const extraction = await getExtractionForMessage(database.db, {
      userId: turn.userId,
      assistantMessageId: turn.assistantMessageId,
    });
    handed.length = 0;

    await settleAnswer(turn, input, complete);
    await afterResponseIdle();
    expect(await stored(turn.assistantMessageId)).toMatchObject({
      status: "error",
      content: swept?.content,
      error: swept?.error,
    });
    expect(handed).toEqual([]);
    expect(
      await getExtractionForMessage(database.db, { userId: turn.userId, assistantMessageId: turn.assistantMessageId }),
    ).toEqual(extraction);
  });
});
