/**
 * What one memory write pays for an index: the same rows inserted with and without it, in transactions
 * rolled back, so the cached database is left as it was. Indexes are dropped inside each transaction.
 */
import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { percentile } from "./stats";

const ROWS = 100;
const REPEATS = 5;

export interface InsertCost {
  /** ms per row, p50 over the repeats, with only the indexes named present among those measured. */
  perRow: Record<string, number>;
  rows: number;
  repeats: number;
}

/** `setups`: name → the measured indexes to keep; every other index in `measured` is dropped for that run. */
export async function insertCost(
  database: Database,
  userId: string,
  measured: readonly string[],
  setups: Record<string, readonly string[]>,
): Promise<InsertCost> {
  const rolledBack = new Error("roll back");
  const samples = new Map<string, number[]>(Object.keys(setups).map((name) => [name, []]));
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    // Interleaved like the retrieval contenders: noise hits each setup alike.
    for (const [name, keep] of Object.entries(setups)) {
      await database.db
        .transaction(async (tx) => {
          for (const index of measured) if (!keep.includes(index)) await tx.execute(sql.raw(`DROP INDEX ${index}`));
          const started = performance.now();
          await tx.execute(sql`
            INSERT INTO memories (user_id, content, title, type, importance, embedding, embedding_model, provenance)
            SELECT user_id, content || ' (copy)', title, type, importance, embedding, embedding_model, provenance
            FROM memories WHERE user_id = ${userId}::uuid AND status = 'active'
            ORDER BY id OFFSET ${repeat * ROWS}::int LIMIT ${ROWS}::int`);
          samples.get(name)?.push((performance.now() - started) / ROWS);
          throw rolledBack;
        })
        .catch((error: unknown) => {
          if (error !== rolledBack) throw error;
        });
    }
  }
  return {
    perRow: Object.fromEntries(
      [...samples].map(([name, values]) => [
        name,
        Math.round(
          percentile(
            [...values].sort((a, b) => a - b),
            50,
          ) * 1000,
        ) / 1000,
      ]),
    ),
    rows: ROWS,
    repeats: REPEATS,
  };
}
