/**
 * Migration 0010 on a database that already holds data, on both databases: every demo message
 * stored before it gets a thread of its own and a Message-ID of its own (distinct, RFC 5322 msg-ids),
 * and linked Google accounts keep their tokens, not marked revoked.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, selectRows } from "@/db/client";
import { DB_KINDS } from "@/tests/db";
import { createUser } from "@/tests/fixtures/memories";
import { migratedUntil, type PartlyMigrated } from "@/tests/migrations";

describe.each(DB_KINDS)("migration 0010 (demo threads, revoked Google grants) on %s", (kind) => {
  let opened: PartlyMigrated;
  let database: Database;

  beforeAll(async () => {
    opened = await migratedUntil(kind, "0010_");
    database = opened.database;
    const userId = await createUser(database.db, "Before");
    await database.db.execute(sql`INSERT INTO demo_mailboxes (user_id) VALUES (${userId})`);
    await database.db.execute(
      sql`INSERT INTO demo_mail_messages (user_id, from_address, subject, body, sent_at)
          VALUES (${userId}, 'a@example.com', 'One', 'x', now()),
                 (${userId}, 'b@example.com', 'Two', 'y', now()),
                 (${userId}, 'c@example.com', 'Three', 'z', now())`,
    );
    await database.db.execute(
      sql`INSERT INTO accounts (user_id, type, provider, provider_account_id, access_token, refresh_token, scope)
          VALUES (${userId}, 'oidc', 'google', 'g-1', 'at', 'rt', 'openid https://www.googleapis.com/auth/gmail.modify')`,
    );
    await opened.migrateRest();
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("each earlier demo message is its own thread with its own Message-ID", async () => {
    const rows = await selectRows<{
      thread_id: string;
      message_id: string;
      in_reply_to: string | null;
      references: string[];
    }>(database.db, sql`SELECT thread_id, message_id, in_reply_to, "references" FROM demo_mail_messages`);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.thread_id)).size).toBe(3);
    expect(new Set(rows.map((r) => r.message_id)).size).toBe(3);
    for (const row of rows) {
      expect(row.message_id).toMatch(/^<[0-9a-f-]{36}@demo\.lifeline\.example\.com>$/);
      expect(row).toMatchObject({ in_reply_to: null, references: [] });
    }
  });

  it("a linked Google account keeps its tokens and is not marked revoked", async () => {
    const [account] = await selectRows<{ access_token: string; refresh_token: string; tokens_revoked_at: Date | null }>(
      database.db,
      sql`SELECT access_token, refresh_token, tokens_revoked_at FROM accounts`,
    );
    expect(account).toEqual({ access_token: "at", refresh_token: "rt", tokens_revoked_at: null });
  });
});
