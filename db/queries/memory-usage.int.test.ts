/**
 * Migration 0009 and the access count: counts move from `memories` (whose rows hold their 6 KB
 * vectors) to the narrow `memory_usage`, and counting an access never rewrites a memory's row. Checked
 * on both databases, from a database as it was before the migration.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, selectRows } from "@/db/client";
import { getMemory } from "@/db/queries/memories";
import { listMemories } from "@/db/queries/memory-list";
import { recordAccess } from "@/lib/memory/retrieval/access";
import { DB_KINDS } from "@/tests/db";
import { createUser, insertMemories, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import { migratedUntil, type PartlyMigrated } from "@/tests/migrations";

const READ_AT = new Date("2026-10-02T08:30:00.000Z");

/** The row version of each memory: it changes whenever the row is rewritten. */
const versions = (database: Database, ids: readonly string[]) =>
  selectRows<{ id: string; version: string }>(
    database.db,
    sql`SELECT id, xmin::text AS version FROM memories WHERE id = ANY(${`{${ids.join(",")}}`}::uuid[]) ORDER BY id`,
  );

describe.each(DB_KINDS)("migration 0009 and access counts (memory_usage) on %s", (kind) => {
  let opened: PartlyMigrated;
  let database: Database;
  let userId: string;
  let otherId: string;
  let read: string;
  let unread: string;
  let foreign: string;

  beforeAll(async () => {
    opened = await migratedUntil(kind, "0009_");
    database = opened.database;
    userId = await createUser(database.db, "Usage");
    otherId = await createUser(database.db, "Other");
    // Stored the way the schema before 0009 did: the count in the memory's row.
    const legacy = await selectRows<{ id: string }>(
      database.db,
      sql`INSERT INTO memories (user_id, content, provenance, embedding_model, access_count, last_accessed_at)
          VALUES (${userId}, 'reads on the train', 'user_created', ${TEST_EMBEDDER}, 3, ${READ_AT.toISOString()}::timestamptz),
                 (${userId}, 'keeps bees', 'user_created', ${TEST_EMBEDDER}, 0, NULL)
          RETURNING id`,
    );
    [read, unread] = legacy.map((row) => row.id) as [string, string];
    await opened.migrateRest();
    [foreign] = (await insertMemories(database.db, [{ userId: otherId, content: "collects stamps" }])) as [string];
  });
  afterAll(async () => {
    await opened?.close();
  });

  /** The memory's count and last access, as the API shows them (getMemory). */
  const usageOf = async (owner: string, memoryId: string) => {
    const memory = await getMemory(database.db, { userId: owner, memoryId });
    return [memory.accessCount, memory.lastAccessedAt];
  };

  it("moves each count with its time, and drops the columns from memories", async () => {
    expect(await selectRows(database.db, sql`SELECT memory_id, access_count FROM memory_usage`)).toEqual([
      { memory_id: read, access_count: 3 },
    ]);
    const [columns] = await selectRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM information_schema.columns
          WHERE table_name = 'memories' AND column_name IN ('access_count', 'last_accessed_at')`,
    );
    expect(columns?.n).toBe(0);
    expect(await usageOf(userId, read)).toEqual([3, READ_AT]);
    // Never read: no row, shown as 0 and never.
    expect(await usageOf(userId, unread)).toEqual([0, null]);
  });

  it("counts an access without rewriting the memory's row; another user's ids count nothing", async () => {
    const before = await versions(database, [read, unread, foreign]);
    const now = new Date("2026-11-30T12:00:00.000Z");
    await recordAccess(database.db, { userId, memoryIds: [read, unread, unread, foreign], now });
    expect(await versions(database, [read, unread, foreign])).toEqual(before);
    expect(await usageOf(userId, read)).toEqual([4, now]);
    expect(await usageOf(userId, unread)).toEqual([1, now]);
    expect(await usageOf(otherId, foreign)).toEqual([0, null]);
    // The memories page's "most used" order reads the same counts.
    const page = await listMemories(database.db, { userId, sort: "used" });
    expect(page.memories.map((memory) => [memory.id, memory.accessCount])).toEqual([
      [read, 4],
      [unread, 1],
    ]);
  });

  it("goes with its memory when the memory is erased", async () => {
    await database.db.execute(sql`DELETE FROM memories WHERE id = ${unread}`);
    const rows = await selectRows<{ memory_id: string }>(database.db, sql`SELECT memory_id FROM memory_usage`);
    expect(rows.map((row) => row.memory_id)).toEqual([read]);
  });
});
