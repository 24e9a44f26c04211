/**
 * listImportPage: the import's conversations a page at a time in their original order, each with the
 * exchanges the import queued in it (bounded per conversation), their status and what the extraction
 * stored; another user's import is not found.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { isAppError } from "@/core/errors";
import {
  addImportBatch,
  type BatchConversation,
  createImport,
  IMPORT_PAGE,
  listImportPage,
  startImport,
} from "@/db/queries/imports";
import { memoryExtractions } from "@/db/schema";
import { DB_KINDS } from "@/tests/db";
import { createUser } from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";

const day = (n: number, minute = 0) => new Date(Date.UTC(2024, 0, 1 + n, 9, minute)).toISOString();

/** Conversation `n` said on day `n` (listed out of order), with `exchanges` user → assistant pairs. */
function conversation(n: number, exchanges = 1): BatchConversation {
  return {
    sourceId: `c${n}`,
    title: `Conversation ${n}`,
    createdAt: day(n),
    messages: Array.from({ length: exchanges }, (_, i) => [
      { sourceId: `c${n}-u${i}`, role: "user" as const, text: `Question ${i} of ${n}`, createdAt: day(n, 2 * i) },
      { sourceId: `c${n}-a${i}`, role: "assistant" as const, text: `Answer ${i}`, createdAt: day(n, 2 * i + 1) },
    ]).flat(),
  };
}

describe.each(DB_KINDS)("an import's page on %s", (kind) => {
  const database = useTestDatabase(kind);
  const db = () => database.db;

  async function imported(userId: string, batch: BatchConversation[]) {
    const row = await createImport(db(), { userId, source: "chatgpt", fileName: "export.zip" });
    await addImportBatch(db(), { userId, importId: row.id, conversations: batch, runner: "in-process" });
    await startImport(db(), { userId, importId: row.id, now: new Date() });
    return row.id;
  }

  it("pages the conversations in their original order, each with its exchanges (at most IMPORT_PAGE.exchanges)", async () => {
    const userId = await createUser(db());
    const count = IMPORT_PAGE.conversations + 2;
    const batch = Array.from({ length: count }, (_, i) =>
      conversation(count - i, i === 0 ? IMPORT_PAGE.exchanges + 3 : 1),
    );
    const importId = await imported(userId, batch);

    const first = await listImportPage(db(), { userId, importId, page: 1 });
    expect(first.total).toBe(count);
    expect(first.offset).toBe(0);
    expect(first.conversations.map((c) => c.title)).toEqual(
      Array.from({ length: IMPORT_PAGE.conversations }, (_, i) => `Conversation ${i + 1}`),
    );
    expect(first.conversations[0]?.createdAt).toEqual(new Date(day(1)));
    expect(first.conversations[0]).toMatchObject({ exchangeCount: 1 });
    expect(first.conversations[0]?.exchanges).toEqual([
      expect.objectContaining({ status: "queued", userExcerpt: "Question 0 of 1", saidAt: new Date(day(1)) }),
    ]);

    const second = await listImportPage(db(), { userId, importId, page: 2 });
    expect(second.offset).toBe(IMPORT_PAGE.conversations);
    expect(second.conversations.map((c) => c.title)).toEqual([`Conversation ${count - 1}`, `Conversation ${count}`]);
    const long = second.conversations[1];
    expect(long?.exchangeCount).toBe(IMPORT_PAGE.exchanges + 3);
    expect(long?.exchanges).toHaveLength(IMPORT_PAGE.exchanges);
    expect(long?.exchanges.map((e) => e.userExcerpt).slice(0, 2)).toEqual([
      `Question 0 of ${count}`,
      `Question 1 of ${count}`,
    ]);

    expect((await listImportPage(db(), { userId, importId, page: 3 })).conversations).toEqual([]);
  });

  it("shows what each exchange's extraction stored: its status, its error, its memories and decisions", async () => {
    const userId = await createUser(db());
    const importId = await imported(userId, [conversation(1, 3)]);
    const rows = await db()
      .select({ id: memoryExtractions.id })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, importId))
      .orderBy(sql`(SELECT created_at FROM messages WHERE id = ${memoryExtractions.userMessageId})`);
    const [done, failed, skipped] = rows.map((row) => row.id);
    const memoryId = crypto.randomUUID();
    const decision = { action: "skip", reason: "already remembered", candidate: { content: "Lives in Lisbon" } };
    await db()
      .update(memoryExtractions)
      .set({ status: "succeeded", memoryIds: [memoryId], decisions: [decision] })
      .where(eq(memoryExtractions.id, done ?? ""));
    await db()
      .update(memoryExtractions)
      .set({ status: "failed", attempts: 3, lastError: "the model timed out" })
      .where(eq(memoryExtractions.id, failed ?? ""));
    await db()
      .update(memoryExtractions)
      .set({ status: "skipped" })
      .where(eq(memoryExtractions.id, skipped ?? ""));

    const [shown] = (await listImportPage(db(), { userId, importId, page: 1 })).conversations;
    expect(shown?.exchanges).toEqual([
      expect.objectContaining({
        extractionId: done,
        status: "succeeded",
        memoryIds: [memoryId],
        decisions: [decision],
      }),
      expect.objectContaining({
        extractionId: failed,
        status: "failed",
        attempts: 3,
        lastError: "the model timed out",
      }),
      expect.objectContaining({ extractionId: skipped, status: "skipped", memoryIds: [], decisions: [] }),
    ]);
  });

  it("lists a conversation an earlier import brought when a newer one added exchanges to it", async () => {
    const userId = await createUser(db());
    await imported(userId, [conversation(1, 1)]);
    const newer = await imported(userId, [conversation(1, 2)]);
    const page = await listImportPage(db(), { userId, importId: newer, page: 1 });
    expect(page.total).toBe(1);
    expect(page.conversations[0]?.exchanges.map((e) => e.userExcerpt)).toEqual(["Question 1 of 1"]);
  });

  it("does not find another user's import", async () => {
    const owner = await createUser(db());
    const importId = await imported(owner, [conversation(1)]);
    const other = await createUser(db(), "Eve");
    const error = await listImportPage(db(), { userId: other, importId, page: 1 }).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe("not_found:import");
  });
});
