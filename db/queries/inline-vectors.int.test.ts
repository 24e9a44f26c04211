/**
 * Migration 0006: memories' vectors stored in their rows (toast_tuple_target 8160, STORAGE MAIN), so
 * the retrieval statement's distance pass reads one page per memory instead of a heap tuple and
 * three TOAST chunks. Checked on both databases: the memories stored before the migration are
 * rewritten in place with the same vectors, and those stored after it are inline too; a memory too
 * long for a page still stores (its text goes out of line, not its vector).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, selectRows } from "@/db/client";
import { DB_KINDS } from "@/tests/db";
import { createUser, insertMemories, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import { insertLegacyMemories, migratedUntil, type PartlyMigrated } from "@/tests/migrations";

/** A dense vector no compressor shrinks (a sparse one would fit a row compressed, proving nothing). */
function denseVector(seed: number): number[] {
  let x = seed;
  return Array.from({ length: 1536 }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648 - 0.5;
  });
}

/** Values stored out of line for memories: the chunks of the table's TOAST relation, by value. */
async function toastedValues(database: Database): Promise<number> {
  const [relation] = await selectRows<{ toast: string }>(
    database.db,
    sql`SELECT reltoastrelid::regclass::text AS toast FROM pg_class WHERE oid = 'memories'::regclass`,
  );
  const [row] = await selectRows<{ n: number }>(
    database.db,
    sql`SELECT count(DISTINCT chunk_id)::int AS n FROM ${sql.raw(relation?.toast ?? "")}`,
  );
  return row?.n ?? -1;
}

const vectors = (database: Database, ids: readonly string[]) =>
  selectRows<{ id: string; embedding: string }>(
    database.db,
    // As half precision: the vectors the later migration (halfvec_embeddings) keeps of them.
    sql`SELECT id, embedding::halfvec(1536)::text AS embedding FROM memories WHERE id = ANY(${`{${ids.join(",")}}`}::uuid[]) ORDER BY id`,
  );

describe.each(DB_KINDS)("migration 0006 (vectors inline) on %s", (kind) => {
  let opened: PartlyMigrated;
  let database: Database;
  let userId: string;
  let legacy: string[];
  let before: { id: string; embedding: string }[];

  beforeAll(async () => {
    opened = await migratedUntil(kind, "0006_");
    database = opened.database;
    userId = await createUser(database.db, "Inline");
    legacy = await insertLegacyMemories(database.db, [
      { userId, content: "walks the dog by the river", embedding: denseVector(1), embeddingModel: TEST_EMBEDDER },
      { userId, content: "plays the violin", embedding: denseVector(2), embeddingModel: TEST_EMBEDDER },
    ]);
    before = await vectors(database, legacy);
    // Before 0006, each 6 KB vector is stored out of line.
    expect(await toastedValues(database)).toBe(2);
    await opened.migrateRest();
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("rewrites the stored vectors into their rows, unchanged", async () => {
    expect(await vectors(database, legacy)).toEqual(before);
    expect(await toastedValues(database)).toBe(0);
    const [table] = await selectRows<{ options: string[]; storage: string }>(
      database.db,
      sql`SELECT c.reloptions AS options, a.attstorage::text AS storage
          FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'embedding'
          WHERE c.oid = 'memories'::regclass`,
    );
    expect(table).toEqual({ options: ["toast_tuple_target=8160"], storage: "m" });
  });

  it("stores new vectors in their rows; a text too long for the page goes out of line, not the vector", async () => {
    const [inline] = await insertMemories(database.db, [
      { userId, content: "swims on Sundays", embedding: denseVector(3), embeddingModel: TEST_EMBEDDER },
    ]);
    expect(await toastedValues(database)).toBe(0);
    // 4,000 distinct words: an 8 KB text and tsvector that cannot share a page with a 3 KB vector.
    const long = Array.from({ length: 4_000 }, (_, i) => `w${i.toString(36)}x`).join(" ");
    const [big] = await insertMemories(database.db, [
      { userId, content: long, embedding: denseVector(4), embeddingModel: TEST_EMBEDDER },
    ]);
    const [sizes] = await selectRows<{ vector: number; text: number }>(
      database.db,
      sql`SELECT pg_column_size(embedding) AS vector, octet_length(content) AS text FROM memories WHERE id = ${big}`,
    );
    expect(sizes?.vector).toBeGreaterThan(3_000); // half precision, neither compressed nor a TOAST pointer
    expect(await toastedValues(database)).toBeGreaterThan(0); // the text (and tsvector) went out
    const stored = await vectors(database, [inline as string, big as string]);
    expect(stored.map((row) => JSON.parse(row.embedding).length)).toEqual([1536, 1536]);
  });
});
