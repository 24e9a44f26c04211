/**
 * Migration 0028 (message content hash) on a database that already holds imported chats, on both
 * databases: each imported message gets exactly the hash db/queries/content-hash.ts computes, so a
 * re-export under new ids finds them; a live chat's messages get none.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, selectRows } from "@/db/client";
import { DB_KINDS } from "@/tests/db";
import { createUser } from "@/tests/fixtures/memories";
import { migratedUntil, type PartlyMigrated } from "@/tests/migrations";
import { messageContentHash } from "./content-hash";

describe.each(DB_KINDS)("migration 0028 (message content hash) on %s", (kind) => {
  let opened: PartlyMigrated;
  let database: Database;
  const ids = {
    imported: "00000000-0000-4000-8000-00000000000a",
    live: "00000000-0000-4000-8000-00000000000b",
    q: "00000000-0000-4000-8000-000000000001",
    a: "00000000-0000-4000-8000-000000000002",
    odd: "00000000-0000-4000-8000-000000000003",
    own: "00000000-0000-4000-8000-000000000004",
  };
  const texts = {
    q: "  I live\n\tin  Lisbon.\r\n",
    a: "Caf\u0065\u0301 culture\u00a0there is great.",
    odd: "\v\fspaced\u2003out ",
  };

  beforeAll(async () => {
    opened = await migratedUntil(kind, "0028_");
    database = opened.database;
    const userId = await createUser(database.db, "Before");
    await database.db.execute(
      sql`INSERT INTO conversations (id, user_id, imported_from, source_id, archived) VALUES
            (${ids.imported}, ${userId}, 'chatgpt', 'c1', true)`,
    );
    await database.db.execute(sql`INSERT INTO conversations (id, user_id) VALUES (${ids.live}, ${userId})`);
    await database.db.execute(
      sql`INSERT INTO messages (id, user_id, conversation_id, role, content, source_id, created_at) VALUES
            (${ids.q}, ${userId}, ${ids.imported}, 'user', ${texts.q}, 'm1', '2023-11-14T22:13:20.5Z'),
            (${ids.a}, ${userId}, ${ids.imported}, 'assistant', ${texts.a}, 'm2', '2023-11-14T22:13:21.123Z'),
            (${ids.odd}, ${userId}, ${ids.imported}, 'user', ${texts.odd}, 'm3', '2023-11-14T22:14:00Z'),
            (${ids.own}, ${userId}, ${ids.live}, 'user', 'hello', NULL, '2023-11-14T22:14:00Z')`,
    );
    await opened.migrateRest();
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("gives each imported message the hash the import computes, and a live chat's none", async () => {
    const rows = await selectRows<{ id: string; content_hash: string | null }>(
      database.db,
      sql`SELECT id, content_hash FROM messages`,
    );
    const hashes = Object.fromEntries(rows.map((row) => [row.id, row.content_hash]));
    expect(hashes).toEqual({
      [ids.q]: messageContentHash({ role: "user", text: texts.q, createdAt: "2023-11-14T22:13:20.500Z" }),
      [ids.a]: messageContentHash({ role: "assistant", text: texts.a, createdAt: "2023-11-14T22:13:21.123Z" }),
      [ids.odd]: messageContentHash({ role: "user", text: texts.odd, createdAt: "2023-11-14T22:14:00.000Z" }),
      [ids.own]: null,
    });
  });
});
