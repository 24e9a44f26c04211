import { describe, expect, it } from "vitest";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createUser, insertMemories } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { retrieveConversationMemories } from "./conversation-branch";

const at = (day: number) => new Date(Date.UTC(2025, 0, day));

describe.each(DB_KINDS)("conversation branch on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("returns up to 3 active memories of this conversation, by importance then newest, owner-scoped", async () => {
    const { db } = database;
    const userId = await createUser(db, "Conv");
    const otherUserId = await createUser(db, "Other");
    const conversationId = await createConversation(db, userId);
    const otherConversationId = await createConversation(db, userId);
    const source = { userId, sourceConversationId: conversationId };
    const [older, low, newer, top, lowest] = await insertMemories(db, [
      { ...source, content: "older, 0.7", importance: 0.7, createdAt: at(1) },
      { ...source, content: "0.2", importance: 0.2, createdAt: at(9) },
      { ...source, content: "newer, 0.7", importance: 0.7, createdAt: at(5) },
      { ...source, content: "0.9, no embedding needed", importance: 0.9, createdAt: at(2), embedding: null },
      { ...source, content: "0.1", importance: 0.1, createdAt: at(3) },
    ]);
    await insertMemories(db, [
      { ...source, content: "superseded", importance: 1, status: "superseded" },
      { ...source, content: "deleted", importance: 1, status: "deleted" },
      { userId, sourceConversationId: otherConversationId, content: "other conversation", importance: 1 },
      { userId, content: "no conversation", importance: 1 },
      // Not possible through the app, but the query must not rely on that.
      { userId: otherUserId, sourceConversationId: conversationId, content: "another user's", importance: 1 },
    ]);

    const rows = await retrieveConversationMemories(db, { userId, conversationId, limit: 3 });
    expect(rows.map((row) => [row.id, row.rank])).toEqual([
      [top, 1],
      [newer, 2],
      [older, 3],
    ]);
    expect(rows[1]).toMatchObject({ content: "newer, 0.7", importance: Math.fround(0.7), createdAt: at(5) });

    const all = await retrieveConversationMemories(db, { userId, conversationId, limit: 10 });
    expect(all.map((row) => row.id)).toEqual([top, newer, older, low, lowest]);
    expect(await retrieveConversationMemories(db, { userId: otherUserId, conversationId, limit: 10 })).toHaveLength(1);
  });
});
