/**
 * Stepping between versions and deleting them when requests race (lib/chat/versions.ts), on PGlite
 * and Postgres. PGlite runs one statement at a time; on Postgres each call below has its own
 * connection, so their reads and writes interleave as parallel requests' do.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AppError } from "@/core/errors";
import { type Db, selectRows } from "@/db/client";
import { deleteConversation } from "@/db/queries/conversations";
import { lockExtraction, skipIfMemoryOff } from "@/db/queries/extractions";
import { createMessages } from "@/db/queries/messages";
import { conversations, messages } from "@/db/schema";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createPair, createQueuedPair, createUser, gate } from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";
import { deleteVersion, showVersion } from "./versions";

const ROUNDS = 12;

/** Each call's outcome: "ok", or the status of the AppError it threw; anything else is thrown again. */
async function outcomes(calls: Promise<unknown>[]): Promise<(string | number)[]> {
  const settled = await Promise.allSettled(calls);
  return settled.map((result) => {
    if (result.status === "fulfilled") return "ok";
    if (result.reason instanceof AppError) return result.reason.status;
    throw result.reason;
  });
}

/** The conversation's current message is one of its messages, never null while it has any. */
async function expectValidCurrent(db: Db, conversationId: string) {
  const [conversation] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
  const left = await db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversationId));
  expect(left.length).toBeGreaterThan(0);
  expect(left.map((m) => m.id)).toContain(conversation?.currentMessageId);
}

describe.each(DB_KINDS)("versions under concurrency on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("stepping to a version while it is deleted: 200 or 404, and the current message stays valid", async () => {
    const { db } = database;
    const userId = await createUser(db, "Racer");
    for (let round = 0; round < ROUNDS; round++) {
      const conversationId = await createConversation(db, userId);
      const first = await createPair(db, { userId, conversationId }, "I live in Lisbon", "Answer 1.");
      // A regenerated answer: the current message, a version of the first.
      const [regenerated] = await createMessages(db, {
        userId,
        conversationId,
        parentMessageId: first.userMessageId,
        messages: [{ role: "assistant", content: "Answer 2." }],
      });
      const ids = { userId, conversationId };
      const [step, removal] = await outcomes([
        showVersion(db, { ...ids, messageId: first.assistantMessageId }),
        deleteVersion(db, { userId, messageId: first.assistantMessageId }),
      ]);
      expect(["ok", 404]).toContain(step);
      expect(removal).toBe("ok");
      await expectValidCurrent(db, conversationId);
      const [conversation] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
      expect(conversation?.currentMessageId).toBe(regenerated?.id);
    }
  });

  it("parallel deletes of a question and its answer: each done or 404, and the current message stays valid", async () => {
    const { db } = database;
    const userId = await createUser(db, "Deleter");
    for (let round = 0; round < ROUNDS; round++) {
      const conversationId = await createConversation(db, userId);
      const first = await createPair(db, { userId, conversationId }, "I live in Lisbon", "Answer 1.");
      const second = await createPair(db, { userId, conversationId }, "I have a cat", "Answer 2.");
      const [regenerated] = await createMessages(db, {
        userId,
        conversationId,
        parentMessageId: second.userMessageId,
        messages: [{ role: "assistant", content: "Answer 3." }],
      });
      const answer = regenerated?.id ?? "";
      const results = await outcomes(
        [second.userMessageId, answer, second.userMessageId, answer].map((messageId) =>
          deleteVersion(db, { userId, messageId }),
        ),
      );
      for (const result of results) expect(["ok", 404]).toContain(result);
      await expectValidCurrent(db, conversationId);
      const [conversation] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
      expect(conversation?.currentMessageId).toBe(first.assistantMessageId);
    }
  });
});

describe.each(DB_KINDS)("what deleting a version refuses on %s", (kind) => {
  const database = useTestDatabase(kind);

  async function conversationWithPair() {
    const { db } = database;
    const userId = await createUser(db, "Refused");
    const conversationId = await createConversation(db, userId);
    const first = await createPair(db, { userId, conversationId }, "I live in Lisbon", "Answer 1.");
    return { db, userId, conversationId, first };
  }

  async function messageIdsOf(db: Db, conversationId: string) {
    const rows = await db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversationId));
    return rows.map((m) => m.id).sort();
  }

  it("a question's only answer: 409 conflict:only_answer, nothing deleted; with another version, or with its question, it goes", async () => {
    const { db, userId, conversationId, first } = await conversationWithPair();
    const before = await messageIdsOf(db, conversationId);
    await expect(deleteVersion(db, { userId, messageId: first.assistantMessageId })).rejects.toMatchObject({
      code: "conflict:only_answer",
      status: 409,
    });
    expect(await messageIdsOf(db, conversationId)).toEqual(before);

    const [regenerated] = await createMessages(db, {
      userId,
      conversationId,
      parentMessageId: first.userMessageId,
      messages: [{ role: "assistant", content: "Answer 2." }],
    });
    await deleteVersion(db, { userId, messageId: first.assistantMessageId });
    expect(await messageIdsOf(db, conversationId)).toEqual([first.userMessageId, regenerated?.id].sort());
    await deleteVersion(db, { userId, messageId: first.userMessageId });
    expect(await messageIdsOf(db, conversationId)).toEqual([]);
  });

  it("an answer still streaming, or a message above it: 409 conflict:streaming, nothing deleted", async () => {
    const { db, userId, conversationId, first } = await conversationWithPair();
    const [question, streaming] = await createMessages(db, {
      userId,
      conversationId,
      messages: [
        { role: "user", content: "And now?" },
        { role: "assistant", content: "", status: "streaming" },
      ],
    });
    // A second version, so the streaming answer is not its question's only one.
    await createMessages(db, {
      userId,
      conversationId,
      parentMessageId: question?.id,
      messages: [{ role: "assistant", content: "Another." }],
    });
    const before = await messageIdsOf(db, conversationId);
    for (const messageId of [streaming?.id ?? "", question?.id ?? "", first.userMessageId]) {
      await expect(deleteVersion(db, { userId, messageId })).rejects.toMatchObject({
        code: "conflict:streaming",
        status: 409,
      });
    }
    expect(await messageIdsOf(db, conversationId)).toEqual(before);
  });
});

/** Waits until a statement of this database is waiting for a row lock (PGlite runs one at a time: Postgres only). */
async function untilLockWait(db: Db): Promise<void> {
  for (let i = 0; i < 250; i++) {
    const [waiting] = await selectRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((waiting?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no statement came to wait for a lock");
}

describe("deleting a chat while its extraction stores, on postgres", () => {
  const database = useTestDatabase("postgres");

  it("waits for the store to commit, then deletes: no deadlock between the two", async () => {
    const { db } = database;
    const userId = await createUser(db, "Store");
    const conversationId = await createConversation(db, userId);
    const { extraction } = await createQueuedPair(db, { userId, conversationId }, "I live in Lisbon");
    const locked = gate();
    const release = gate();
    // The store's order (lib/memory/extraction/store.ts): the extraction row, then a share lock on its conversation.
    const store = db.transaction(async (tx) => {
      await lockExtraction(tx, { extractionId: extraction.id });
      locked.open();
      await release.promise;
      return skipIfMemoryOff(tx, { extractionId: extraction.id, now: new Date() });
    });
    await locked.promise;
    const deletion = deleteConversation(db, { userId, conversationId });
    await untilLockWait(db);
    release.open();
    expect(await store).toBe(false);
    await deletion;
    expect(await db.select().from(conversations).where(eq(conversations.id, conversationId))).toEqual([]);
  });
});
