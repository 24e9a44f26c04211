/**
 * memory_corpus_stats (migration 0005): per user and embedder, the BM25 corpus statistics (read by
 * the certified fast path of issue 17, since removed: docs/performance.md). Kept by statement triggers on memories, so every
 * write path keeps it right; checked here against a recount from scratch after inserts, edits,
 * status changes, re-embedding, deletes, a user's deletion, concurrent writers — and after the
 * migration itself, which backfills the memories stored before it.
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
  embedding_model: string;
  memories: number;
  total_length: number;
  zero_vectors: number;
}

const stored = (database: Database) =>
  selectRows<StatsRow>(
    database.db,
    sql`SELECT user_id, embedding_model, memories, total_length::int AS total_length, zero_vectors
        FROM memory_corpus_stats ORDER BY user_id, embedding_model`,
  );

/** The statistics recounted from the memories, with lengths taken from the tsvectors themselves. */
const recounted = (database: Database) =>
  selectRows<StatsRow>(
    database.db,
    sql`SELECT user_id, embedding_model,
               count(*) FILTER (WHERE vector_norm(embedding) > 0)::int AS memories,
               coalesce(sum((SELECT sum(coalesce(cardinality(t.positions), 1)) FROM unnest(search_vector) t))
                 FILTER (WHERE vector_norm(embedding) > 0), 0)::int AS total_length,
               count(*) FILTER (WHERE vector_norm(embedding) = 0)::int AS zero_vectors
        FROM memories
        WHERE status = 'active' AND embedding IS NOT NULL AND embedding_model IS NOT NULL
        GROUP BY user_id, embedding_model ORDER BY user_id, embedding_model`,
  );

async function expectConsistent(database: Database) {
  expect(await stored(database)).toEqual(await recounted(database));
}

describe.each(DB_KINDS)("memory corpus statistics on %s", (kind) => {
  let opened: PartlyMigrated;
  let database: Database;
  let legacyUser: string;
  // Migrated in two steps, with memories stored in between: migration 0005 must backfill them.
  beforeAll(async () => {
    opened = await migratedUntil(kind, "0005_");
    database = opened.database;
    legacyUser = await createUser(database.db, "Before");
    const vector = (components: Record<number, number>) => `[${sparseVector(components).join(",")}]`;
    await database.db.execute(sql`
      INSERT INTO memories (user_id, content, embedding, embedding_model, provenance, status)
      VALUES (${legacyUser}, 'walks the dog by the river', ${vector({ 0: 1 })}::vector, ${TEST_EMBEDDER}, 'user_created', 'active'),
             (${legacyUser}, 'the zero vector', ${vector({})}::vector, ${TEST_EMBEDDER}, 'user_created', 'active'),
             (${legacyUser}, 'deleted', ${vector({ 1: 1 })}::vector, ${TEST_EMBEDDER}, 'user_created', 'deleted')`);
    await opened.migrateRest();
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("migration 0005 backfills the memories stored before it", async () => {
    await expectConsistent(database);
    expect(await stored(database)).toEqual([
      { user_id: legacyUser, embedding_model: TEST_EMBEDDER, memories: 1, total_length: 3, zero_vectors: 1 },
    ]);
  });

  it("search_length is the tsvector's BM25 length (positions per lexeme, summed)", async () => {
    const { db } = database;
    const userId = await createUser(db, "Length");
    const [id] = await insertMemories(db, [
      { userId, title: "Tea", content: "Green tea, more green tea and a walk", embedding: sparseVector({ 0: 1 }) },
    ]);
    const [row] = await selectRows<{ search_length: number; expected: number }>(
      db,
      sql`SELECT search_length, (SELECT sum(cardinality(t.positions))::int FROM unnest(search_vector) t) AS expected
          FROM memories WHERE id = ${id}`,
    );
    // tea ×3, green ×2, walk ×1 ("more", "and", "a" are stop words).
    expect(row).toEqual({ search_length: 6, expected: 6 });
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
    const aliceRow = (await stored(database)).find((r) => r.user_id === alice && r.embedding_model === TEST_EMBEDDER);
    expect(aliceRow).toMatchObject({ memories: 2, zero_vectors: 1 });

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
    await db.update(memories).set({ status: "superseded" }).where(eq(memories.id, marathons));
    await expectConsistent(database);
    await db.update(memories).set({ status: "active" }).where(eq(memories.id, archived));
    await expectConsistent(database);
    await db
      .update(memories)
      .set({ embedding: sparseVector({ 5: 1 }), embeddingModel: TEST_EMBEDDER })
      .where(inArray(memories.id, [noVector, zero]));
    await expectConsistent(database);
    await db.update(memories).set({ embeddingModel: TEST_EMBEDDER }).where(eq(memories.id, otherModel));
    await expectConsistent(database);
    // Access counting writes no statistic.
    const before = await stored(database);
    await db.update(memories).set({ accessCount: sql`access_count + 1` }).where(eq(memories.userId, alice));
    expect(await stored(database)).toEqual(before);

    await db.delete(memories).where(eq(memories.id, greenTea));
    await expectConsistent(database);
    await db.delete(users).where(eq(users.id, alice));
    await expectConsistent(database);
    expect((await stored(database)).some((r) => r.user_id === alice)).toBe(false);
    expect((await stored(database)).some((r) => r.user_id === bob)).toBe(true);
  });

  it("stays right under concurrent writers", async () => {
    const { db } = database;
    const userId = await createUser(db, "Concurrent");
    const words = ["tea", "coffee", "garden", "river", "piano", "violin", "lisbon", "berlin"];
    // 4 connections on Postgres (PGlite serialises them): inserts, edits and deletes interleaved.
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
    expect(row?.memories).toBe(8 * 4);
  });
});
