/**
 * Migration `halfvec_embeddings`: memories.embedding becomes halfvec(1536), the unused
 * HNSW index goes, and the stored vectors are migrated. Checked on both databases, from rows stored
 * as `vector(1536)` by the schema before it: an ordinary vector is stored rounded to half precision
 * (the same values as a cast), one beyond half's range or below its normal range is scaled to unit
 * length first (cosine similarity unchanged), a zero vector stays zero; the column stays in the row.
 * The migration is found by its name, not its number.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { type Database, MIGRATIONS_FOLDER, selectRows } from "@/db/client";
import { DB_KINDS } from "@/tests/db";
import { createUser, insertMemories, sparseVector, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import { insertLegacyMemories, migratedUntil, type PartlyMigrated } from "@/tests/migrations";

const TAG = (
  JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  }
).entries.find((entry) => entry.tag.endsWith("_halfvec_embeddings"))?.tag;

function denseVector(seed: number, scale = 1): number[] {
  let x = seed;
  return Array.from({ length: EMBEDDING_DIMENSIONS }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return (x / 2147483648 - 0.5) * scale;
  });
}

const cosine = (a: readonly number[], b: readonly number[]) => {
  let [dot, na, nb] = [0, 0, 0];
  a.forEach((x, i) => {
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  });
  return dot / Math.sqrt(na * nb);
};

describe.each(DB_KINDS)("migration halfvec_embeddings on %s", (kind) => {
  let opened: PartlyMigrated;
  let database: Database;
  let ids: string[];
  let castBefore: string | undefined;
  const vectors = {
    ordinary: denseVector(1),
    huge: denseVector(2, 400_000), // components up to ±200,000: beyond half's ±65,504
    tiny: denseVector(3, 1e-5), // all below half's normal range (6.1e-5)
    zero: sparseVector({}),
  };

  beforeAll(async () => {
    if (!TAG) throw new Error("no migration named halfvec_embeddings in the journal");
    opened = await migratedUntil(kind, TAG);
    database = opened.database;
    const userId = await createUser(database.db, "Half");
    ids = await insertLegacyMemories(
      database.db,
      Object.entries(vectors).map(([content, embedding]) => ({
        userId,
        content,
        embedding,
        embeddingModel: TEST_EMBEDDER,
      })),
    );
    // What a cast of the ordinary vector gives, read before the migration.
    const [row] = await selectRows<{ cast: string }>(
      database.db,
      sql`SELECT embedding::halfvec(1536)::text AS cast FROM memories WHERE id = ${ids[0]}`,
    );
    castBefore = row?.cast;
    await opened.migrateRest();
  });
  afterAll(async () => {
    await opened?.close();
  });

  const stored = async () =>
    selectRows<{ content: string; embedding: string | null; type: string }>(
      database.db,
      sql`SELECT content, embedding::text AS embedding, format_type(a.atttypid, a.atttypmod) AS type
          FROM memories, pg_attribute a
          WHERE a.attrelid = 'memories'::regclass AND a.attname = 'embedding'
          ORDER BY array_position(${`{${ids.join(",")}}`}::uuid[], id)`,
    );

  it("makes the column halfvec(1536), kept in the row, and leaves no vector-typed HNSW index", async () => {
    const rows = await stored();
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(["halfvec(1536)"]));
    const [column] = await selectRows<{ storage: string }>(
      database.db,
      sql`SELECT attstorage::text AS storage FROM pg_attribute WHERE attrelid = 'memories'::regclass AND attname = 'embedding'`,
    );
    expect(column?.storage).toBe("m");
    const indexes = await selectRows<{ name: string }>(
      database.db,
      sql`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'memories'`,
    );
    // The vector-typed index went with the type change; no later migration builds another
    // (binary_codes dropped the halfvec one; db/client.int.test.ts checks what memories has now).
    const vectorIndexes = await selectRows<{ def: string }>(
      database.db,
      sql`SELECT indexdef AS def FROM pg_indexes WHERE tablename = 'memories' AND indexdef ~ 'hnsw'`,
    );
    expect(vectorIndexes).toEqual([]);
    // The other indexes of memories survive the type change.
    expect(indexes.map((index) => index.name)).toEqual(
      expect.arrayContaining(["memories_user_status_idx", "memories_search_vector_idx"]),
    );
  });

  it("stores an ordinary vector rounded to half precision, component by component", async () => {
    const [ordinary] = await stored();
    expect(ordinary?.embedding).toBe(castBefore);
    // The text form prints each half as its shortest float4 form: it reads back as the same half.
    const values = JSON.parse(ordinary?.embedding ?? "[]") as number[];
    expect(values.map((x) => Math.f16round(x))).toEqual(vectors.ordinary.map((x) => Math.f16round(x)));
    expect(values.some((x, i) => x !== vectors.ordinary[i])).toBe(true);
  });

  it("scales a vector beyond half's range, or below its normal range, to unit length: same direction", async () => {
    const rows = await stored();
    for (const [i, original] of [
      [1, vectors.huge],
      [2, vectors.tiny],
    ] as const) {
      const values = JSON.parse(rows[i]?.embedding ?? "[]") as number[];
      expect(values).toHaveLength(EMBEDDING_DIMENSIONS);
      const norm = Math.sqrt(values.reduce((sum, x) => sum + x * x, 0));
      expect(Math.abs(norm - 1)).toBeLessThan(1e-3);
      expect(cosine(values, original)).toBeGreaterThan(0.99999);
    }
    expect(JSON.parse(rows[3]?.embedding ?? "[]")).toEqual(vectors.zero);
  });

  it("refuses a component beyond half's range afterwards", async () => {
    const [user] = await selectRows<{ id: string }>(database.db, sql`SELECT id FROM users LIMIT 1`);
    const error = await insertMemories(database.db, [
      { userId: user?.id ?? "", content: "too big", embedding: sparseVector({ 0: 70_000 }) },
    ]).then(
      () => null,
      (failure: Error) => failure,
    );
    expect(String(error?.cause)).toMatch(/out of range for type halfvec/);
  });
});
