/**
 * Migration 0019 (message versions) on a database that already holds chats, on both databases:
 * every conversation made before it becomes one branch — each message's parent is the message
 * before it in the transcript's order (created_at, then a question before its answer of the same
 * instant) — and its current message is its last; the chat turn's history then reads all of it.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, selectRows } from "@/db/client";
import { DB_KINDS } from "@/tests/db";
import { createUser } from "@/tests/fixtures/memories";
import { migratedUntil, type PartlyMigrated } from "@/tests/migrations";
import { listBranch } from "./messages";

describe.each(DB_KINDS)("migration 0019 (message versions) on %s", (kind) => {
  let opened: PartlyMigrated;
  let database: Database;
  let userId: string;
  const ids = {
    chat: "00000000-0000-4000-8000-00000000000a",
    single: "00000000-0000-4000-8000-00000000000b",
    empty: "00000000-0000-4000-8000-00000000000c",
    q1: "00000000-0000-4000-8000-000000000001",
    a1: "00000000-0000-4000-8000-000000000002",
    q2: "00000000-0000-4000-8000-000000000003",
    a2: "00000000-0000-4000-8000-000000000004",
    only: "00000000-0000-4000-8000-000000000005",
  };

  beforeAll(async () => {
    opened = await migratedUntil(kind, "0019_");
    database = opened.database;
    userId = await createUser(database.db, "Before");
    await database.db.execute(
      sql`INSERT INTO conversations (id, user_id) VALUES (${ids.chat}, ${userId}), (${ids.single}, ${userId}), (${ids.empty}, ${userId})`,
    );
    // Inserted out of order; q1 and a1 share an instant (one statement wrote both).
    await database.db.execute(
      sql`INSERT INTO messages (id, user_id, conversation_id, role, content, created_at) VALUES
            (${ids.a2}, ${userId}, ${ids.chat}, 'assistant', 'a2', '2025-01-01T10:02:00Z'),
            (${ids.a1}, ${userId}, ${ids.chat}, 'assistant', 'a1', '2025-01-01T10:00:00Z'),
            (${ids.q1}, ${userId}, ${ids.chat}, 'user', 'q1', '2025-01-01T10:00:00Z'),
            (${ids.q2}, ${userId}, ${ids.chat}, 'user', 'q2', '2025-01-01T10:01:00Z'),
            (${ids.only}, ${userId}, ${ids.single}, 'user', 'only', '2025-01-01T09:00:00Z')`,
    );
    await opened.migrateRest();
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("links each message to the one before it, a question before its answer of the same instant", async () => {
    const rows = await selectRows<{ id: string; parent_message_id: string | null }>(
      database.db,
      sql`SELECT id, parent_message_id FROM messages`,
    );
    const parents = Object.fromEntries(rows.map((row) => [row.id, row.parent_message_id]));
    expect(parents).toEqual({
      [ids.q1]: null,
      [ids.a1]: ids.q1,
      [ids.q2]: ids.a1,
      [ids.a2]: ids.q2,
      [ids.only]: null,
    });
  });

  it("makes each conversation's last message its current one (none for an empty chat)", async () => {
    const rows = await selectRows<{ id: string; current_message_id: string | null }>(
      database.db,
      sql`SELECT id, current_message_id FROM conversations`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.id, row.current_message_id]))).toEqual({
      [ids.chat]: ids.a2,
      [ids.single]: ids.only,
      [ids.empty]: null,
    });
  });

  it("gives the next turn the whole earlier chat as its branch", async () => {
    const branch = await listBranch(database.db, { userId, conversationId: ids.chat, limit: 20 });
    expect(branch.map((m) => m.content)).toEqual(["q1", "a1", "q2", "a2"]);
  });
});
