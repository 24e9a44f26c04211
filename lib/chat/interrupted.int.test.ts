/**
 * The interrupted-answer sweep against real databases (PGlite and Postgres): an answer a stopped
 * server left streaming is extracted with the question it answers — its parent in the message
 * tree — whatever versions of questions and answers were written around it.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { logger } from "@/core/logger";
import { createExtraction, getExtractionForMessage } from "@/db/queries/extractions";
import { createMessages } from "@/db/queries/messages";
import { messages } from "@/db/schema";
import type { ExtractionDispatcher } from "@/lib/jobs/extraction-queue";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createPair, createUser } from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";
import { recoverInterruptedAnswers } from "./interrupted";

const idle: ExtractionDispatcher = { kind: "in-process", dispatch: async () => {} };
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe.each(DB_KINDS)("the interrupted-answer sweep on %s", (kind) => {
  const database = useTestDatabase(kind);
  const db = () => database.db;

  /** u1→a1, u2→a2, then a1 regenerated into a1′, left streaming by a stopped server. */
  async function cutRegeneration() {
    const userId = await createUser(db());
    const owner = { userId, conversationId: await createConversation(db(), userId) };
    const first = await createPair(db(), owner, "I keep bees on my roof", "Lovely!");
    const second = await createPair(db(), owner, "My sister is called Maya", "Noted.");
    const written = await createMessages(db(), {
      ...owner,
      parentMessageId: first.userMessageId,
      messages: [{ role: "assistant", content: "Bees are won", status: "streaming" }],
    });
    const [answer] = written;
    if (!answer) throw new Error("no answer written");
    await db()
      .update(messages)
      .set({ updatedAt: minutesAgo(10) })
      .where(eq(messages.id, answer.id));
    return { owner, first, second, answer };
  }

  it("extracts a cut regenerated answer with the question it answers, not the newest question before it", async () => {
    const { owner, first, second, answer } = await cutRegeneration();
    expect(await recoverInterruptedAnswers(db(), { dispatcher: idle, now: () => new Date(), log: logger })).toBe(1);
    const extraction = await getExtractionForMessage(db(), { userId: owner.userId, assistantMessageId: answer.id });
    expect(extraction.userMessageId).toBe(first.userMessageId);
    expect(extraction.userMessageId).not.toBe(second.userMessageId);
  });

  it("extracts a cut answer written after an edited question with its own question, not the edit", async () => {
    const userId = await createUser(db());
    const owner = { userId, conversationId: await createConversation(db(), userId) };
    await createPair(db(), owner, "I keep bees on my roof", "Lovely!");
    const second = await createPair(db(), owner, "My sister is called Maya", "Noted.");
    // The first question edited (a sibling of it: no parent) and answered, then the second answer regenerated and cut.
    const [edit] = await createMessages(db(), {
      ...owner,
      parentMessageId: null,
      messages: [
        { role: "user", content: "I keep wasps on my roof" },
        { role: "assistant", content: "Brave!" },
      ],
    });
    const [answer] = await createMessages(db(), {
      ...owner,
      parentMessageId: second.userMessageId,
      messages: [{ role: "assistant", content: "Maya is a lov", status: "streaming" }],
    });
    if (!edit || !answer) throw new Error("no messages written");
    await db()
      .update(messages)
      .set({ updatedAt: minutesAgo(10) })
      .where(eq(messages.id, answer.id));
    await recoverInterruptedAnswers(db(), { dispatcher: idle, now: () => new Date(), log: logger });
    const extraction = await getExtractionForMessage(db(), { userId, assistantMessageId: answer.id });
    expect(extraction.userMessageId).toBe(second.userMessageId);
  });

  it("refuses to record a pair whose answer does not follow the question", async () => {
    const { owner, second, answer } = await cutRegeneration();
    await expect(
      createExtraction(db(), {
        ...owner,
        userMessageId: second.userMessageId,
        assistantMessageId: answer.id,
        status: "queued",
        runner: "in-process",
      }),
    ).rejects.toMatchObject({ code: "not_found:message" });
    await expect(
      createExtraction(db(), {
        ...owner,
        userMessageId: second.userMessageId,
        assistantMessageId: second.assistantMessageId,
        status: "queued",
        runner: "in-process",
      }),
    ).resolves.toMatchObject({ created: true });
  });
});
