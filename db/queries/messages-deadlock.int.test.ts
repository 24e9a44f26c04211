/**
 * Deleting an answer (a version: DELETE /api/messages/:id) cascades to the pair's extraction — which the
 * extraction job may hold at that moment while it reads the message. On Postgres the two can
 * deadlock; the delete, whole or nothing, is tried again instead of failing the request (a 500
 * seen under load before this). Here the job's side is played by a second connection that locks
 * the extraction row, waits for the delete to block on it, then asks for the message.
 */
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type Db, openDatabase } from "@/db/client";
import { memoryExtractions, messages } from "@/db/schema";
import { createPostgresTestDatabaseUrl } from "@/tests/db";
import { createConversation, createUser } from "@/tests/fixtures/memories";
import { createMessages, deleteMessage, inConversation } from "./messages";

describe("deleting a message on postgres, against an extraction job holding the pair", () => {
  let database: Database;
  let db: Db;
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await createPostgresTestDatabaseUrl());
    database = await openDatabase({ kind: "postgres", url, migrate: true, max: 4 });
    db = database.db;
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it("is the deadlock's victim, tries again, and deletes the message", async () => {
    const userId = await createUser(db, "Deadlock");
    const conversationId = await createConversation(db, userId);
    const [question, answer] = await createMessages(db, {
      userId,
      conversationId,
      messages: [
        { role: "user", content: "q" },
        { role: "assistant", content: "a", status: "complete" },
      ],
    });
    if (!question || !answer) throw new Error("no messages");
    const [extraction] = await db
      .insert(memoryExtractions)
      .values({ userId, conversationId, userMessageId: question.id, assistantMessageId: answer.id })
      .returning();

    const job = new pg.Client({ connectionString: url });
    await job.connect();
    try {
      // The job never runs the deadlock check first: the delete's does, and the delete is the victim,
      // however slowly a loaded machine gets each side to its wait.
      await job.query("SET deadlock_timeout = '30s'");
      await job.query("BEGIN");
      await job.query("SELECT 1 FROM memory_extractions WHERE id = $1 FOR UPDATE", [extraction?.id]);
      // As DELETE /api/messages/:id runs it: in the conversation's transaction, which is what is tried again.
      const deleting = inConversation(db, { userId, conversationId }, (tx) =>
        deleteMessage(tx, { userId, messageId: answer.id }),
      );
      // Wait until the delete holds the message and waits for the extraction row.
      for (let i = 0; ; i++) {
        const [row] = await database.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'delete from "messages"%'`,
        );
        if ((row?.waiting ?? 0) > 0) break;
        if (i > 500) throw new Error("the delete never waited for the extraction row");
        await new Promise((r) => setTimeout(r, 20));
      }
      // The job now reads the message: each side waits for the other.
      const reading = job.query("SELECT 1 FROM messages WHERE id = $1 FOR KEY SHARE", [answer.id]);
      await reading;
      await job.query("COMMIT");
      await deleting;
    } finally {
      await job.end();
    }
    expect(await db.select().from(messages).where(eq(messages.id, answer.id))).toEqual([]);
  });
});
