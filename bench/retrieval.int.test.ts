/**
 * The bench's floors must compute what they stand for on a bench database as it is left: with the HNSW indexes
 * `--hnsw-sizes` builds, a bare `min(embedding <=> q)` was answered by walking the graph (~2 ms at 10k instead of
 * ~24), and the "exact ≤ 2× the distance pass" ratio read 8–14×.
 */
import { sql, TransactionRollbackError } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { selectRows } from "@/db/client";
import { DB_KINDS } from "@/tests/db";
import { createUser, insertMemories, seededRandom, TEST_EMBEDDER } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { distanceStatement } from "./retrieval";

describe.each(DB_KINDS)("the bench's distance pass on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("computes every distance though an HNSW index could order them, and keeps the least", async () => {
    const random = seededRandom(5);
    const vector = () => Array.from({ length: EMBEDDING_DIMENSIONS }, () => random() * 2 - 1);
    const userId = await createUser(database.db, "Floor");
    await insertMemories(
      database.db,
      Array.from({ length: 40 }, (_, i) => ({ userId, content: `note ${i}`, embedding: vector() })),
    );
    await database.query("CREATE INDEX bench_floor_hnsw ON memories USING hnsw (embedding halfvec_cosine_ops)");
    await database.query("ANALYZE memories");
    const question = vector();
    const statement = distanceStatement(userId, TEST_EMBEDDER, question);
    await database.db
      .transaction(async (tx) => {
        // As the planner chooses at scale, where the walk is cheaper than reading a user's rows through their btree
        // (both dropped here, in a transaction that only plans) or the table (disabled).
        await tx.execute(sql`DROP INDEX memories_user_status_idx, memories_user_code_idx, memories_user_restored_idx`);
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
        const plan = (await selectRows<{ "QUERY PLAN": string }>(tx, sql`EXPLAIN ${statement}`))
          .map((row) => row["QUERY PLAN"])
          .join("\n");
        expect(plan).not.toContain("bench_floor_hnsw");
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    const [nearest] = await selectRows<{ nearest: number }>(database.db, statement);
    const [computed] = await selectRows<{ nearest: number }>(
      database.db,
      sql`SELECT min((embedding <=> ${`[${question.join(",")}]`}::halfvec)::float8) AS nearest FROM memories
          WHERE user_id = ${userId}::uuid GROUP BY user_id`,
    );
    expect(nearest?.nearest).toBeCloseTo(computed?.nearest ?? Number.NaN, 9);
  });
});
