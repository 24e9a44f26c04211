/**
 * memory_stats (migration 0032): per user and vector space, the counts retrieval reads instead of counting a
 * user's memories. Kept by statement triggers on memories, so every write path keeps them right; checked here
 * against a recount from the memories themselves, written with the exact statement's own definitions (the NaN
 * distance of a zero vector, awaitsEmbedder), after inserts, edits, status changes, re-embedding, deletes, a
 * user's deletion, concurrent writers, and after the migration, which backfills the memories stored before it.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, selectRows } from "@/db/client";
import { memories, users } from "@/db/schema";
import { DB_KINDS } from "@/tests/db";
import { createUser, insertMemories, sparseVector, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import { migratedUntil, type PartlyMigrated } from "@/tests/migrations";

interface StatsRow extends Record<string, unknown> {
  user_id: string;
  vector_space: string;
  comparable: number;
  comparable_length: number;
  with_text: number;
}

const stored = (database: Database) =>
  selectRows<StatsRow>(
    database.db,
    sql`SELECT user_id, vector_space, comparable, comparable_length::int AS comparable_length, with_text
        FROM memory_stats ORDER BY user_id, vector_space`,
  );

/**
 * From scratch: a memory is comparable when its distance to a query is a number (a zero vector's is NaN), its length
 * is taken from the tsvector, and it has text when awaitsEmbedder's test would find some.
 */
const recounted = (database: Database) =>
  selectRows<StatsRow>(
    database.db,
    sql`SELECT user_id, vector_space,
               count(*) FILTER (WHERE distance <> 'NaN'::float8)::int AS comparable,
               coalesce(sum((SELECT sum(coalesce(cardinality(t.positions), 1)) FROM unnest(search_vector) t))
                 FILTER (WHERE distance <> 'NaN'::float8), 0)::int AS comparable_length,
               count(*) FILTER (WHERE (coalesce(title, '') || content) ~ '[^[:space:]]')::int AS with_text
        FROM (SELECT *, CASE WHEN embedding IS NULL THEN '' ELSE coalesce(embedding_model, '') END AS vector_space,
                     CASE WHEN embedding IS NOT NULL AND embedding_model IS NOT NULL
                          THEN (embedding <=> ${`[${sparseVector({ 0: 1, 1: 1 }).join(",")}]`}::halfvec)::float8 END AS distance
              FROM memories WHERE status = 'active') m
        GROUP BY user_id, vector_space
        HAVING count(*) FILTER (WHERE distance <> 'NaN'::float8) > 0
            OR count(*) FILTER (WHERE (coalesce(title, '') || content) ~ '[^[:space:]]') > 0
        ORDER BY user_id, vector_space`,
  );

async function expectConsistent(database: Database) {
  expect(await stored(database)).toEqual(await recounted(database));
}

describe.each(DB_KINDS)("memory_stats on %s", (kind) => {
  let opened: PartlyMigrated;
  let database: Database;
  let earlier: string;
  // Migrated in two steps, with memories stored in between: migration 0032 must count them.
  beforeAll(async () => {
    opened = await migratedUntil(kind, "0032_");
    database = opened.database;
    earlier = await createUser(database.db, "Earlier");
    await insertMemories(database.db, [
      { userId: earlier, content: "walks the dog by the river", embedding: sparseVector({ 0: 1 }) },
      { userId: earlier, content: "the zero vector", embedding: sparseVector({}) },
      { userId: earlier, content: "deleted", embedding: sparseVector({ 1: 1 }), status: "deleted" },
      { userId: earlier, content: "no vector yet", embedding: null, embeddingModel: null },
      { userId: earlier, content: "  ", embedding: null, embeddingModel: null },
    ]);
    await opened.migrateRest();
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("migration 0032 counts the memories stored before it", async () => {
    await expectConsistent(database);
    expect(await stored(database)).toEqual([
      { user_id: earlier, vector_space: "", comparable: 0, comparable_length: 0, with_text: 1 },
      // walks, dog, river; the zero vector has text but is not comparable.
      { user_id: earlier, vector_space: TEST_EMBEDDER, comparable: 1, comparable_length: 3, with_text: 2 },
    ]);
  });

  it("follows inserts, edits, status changes, re-embedding, deletes and a user's deletion", async () => {
    const { db } = database;
    const alice = await createUser(db, "Alice");
    const bob = await createUser(db, "Bob");
    const ids = await insertMemories(db, [
      { userId: alice, content: "likes green tea in the morning", embedding: sparseVector({ 0: 1 }) },
      { userId: alice, content: "runs marathons", embedding: sparseVector({ 1: 1 }) },
      { userId: alice, content: "no vector yet", embedding: null, embeddingModel: null },
      { userId: alice, content: "the zero vector", embedding: sparseVector({}) },
      { userId: alice, content: "archived already", embedding: sparseVector({ 2: 1 }), status: "deleted" },
      { userId: alice, content: "another embedder", embedding: sparseVector({ 3: 1 }), embeddingModel: "other/model" },
      { userId: bob, content: "plays the violin every evening", embedding: sparseVector({ 4: 1 }) },
    ]);
    await expectConsistent(database);
    const aliceRows = (await stored(database)).filter((row) => row.user_id === alice);
    expect(aliceRows.map(({ vector_space, comparable, with_text }) => [vector_space, comparable, with_text])).toEqual([
      ["", 0, 1],
      ["other/model", 1, 1],
      [TEST_EMBEDDER, 2, 3],
    ]);

    const [greenTea, marathons, noVector, zero, archived, otherModel] = ids as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    await db
      .update(memories)
      .set({ content: "likes green tea and black coffee every single morning" })
      .where(eq(memories.id, greenTea));
    await expectConsistent(database);
    await db.update(memories).set({ title: "Running" }).where(eq(memories.id, marathons));
    await expectConsistent(database);
    await db.update(memories).set({ content: " " }).where(eq(memories.id, noVector));
    await expectConsistent(database);
    await db.update(memories).set({ status: "superseded" }).where(eq(memories.id, marathons));
    await expectConsistent(database);
    await db.update(memories).set({ status: "active" }).where(eq(memories.id, archived));
    await expectConsistent(database);
    await db
      .update(memories)
      .set({ content: "now it has words", embedding: sparseVector({ 5: 1 }), embeddingModel: TEST_EMBEDDER })
      .where(inArray(memories.id, [noVector, zero]));
    await expectConsistent(database);
    await db.update(memories).set({ embeddingModel: TEST_EMBEDDER }).where(eq(memories.id, otherModel));
    await expectConsistent(database);
    // The space's last memory gone: its row goes with it.
    expect((await stored(database)).some((row) => row.user_id === alice && row.vector_space === "")).toBe(false);
    // A write that changes nothing counted (pinning) leaves the counts as they were.
    const before = await stored(database);
    await db.update(memories).set({ pinned: true }).where(eq(memories.userId, alice));
    expect(await stored(database)).toEqual(before);

    await db.delete(memories).where(eq(memories.id, greenTea));
    await expectConsistent(database);
    await db.delete(users).where(eq(users.id, alice));
    await expectConsistent(database);
    expect((await stored(database)).some((row) => row.user_id === alice)).toBe(false);
    expect((await stored(database)).some((row) => row.user_id === bob)).toBe(true);
  });

  it("stays right under concurrent writers", async () => {
    const { db } = database;
    const userId = await createUser(db, "Concurrent");
    const words = ["tea", "coffee", "garden", "river", "piano", "violin", "lisbon", "berlin"];
    // Several connections on Postgres (PGlite serialises them): inserts, edits and deletes interleaved.
    await Promise.all(
      Array.from({ length: 8 }, async (_, writer) => {
        for (let i = 0; i < 6; i++) {
          const [id] = await insertMemories(db, [
            {
              userId,
              content: `${words[writer]} ${words[i % words.length]} note ${i}`,
              embedding: sparseVector({ [writer]: 1, [8 + i]: 1 }),
            },
          ]);
          if (i % 2 === 1) {
            await db
              .update(memories)
              .set({ content: `${words[writer]} edited again and again ${i}` })
              .where(eq(memories.id, id as string));
          }
          if (i % 3 === 2) await db.delete(memories).where(eq(memories.id, id as string));
        }
      }),
    );
    await expectConsistent(database);
    const row = (await stored(database)).find((r) => r.user_id === userId);
    expect(row?.comparable).toBe(8 * 4);
  });
});
