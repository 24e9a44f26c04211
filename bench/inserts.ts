/**
 * What one memory write pays for an index: the same rows inserted with and without it, in transactions
 * rolled back, so the cached database is left as it was. Indexes are dropped inside each transaction.
 */
import { sql } from "drizzle-orm";
import { type Database, type Db, selectRows } from "@/db/client";
import { percentile } from "./stats";

const ROWS = 100;
const REPEATS = 5;

/** ms that `measured` took inside a transaction rolled back afterwards; `prepare` runs first, untimed. */
async function timedAndRolledBack(
  database: Database,
  prepare: (tx: Db) => Promise<void>,
  measured: (tx: Db) => Promise<void>,
): Promise<number> {
  let ms = 0;
  const rolledBack = new Error("roll back");
  await database.db
    .transaction(async (tx) => {
      await prepare(tx as unknown as Db);
      const started = performance.now();
      await measured(tx as unknown as Db);
      ms = performance.now() - started;
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
  return ms;
}

/** The median, to the microsecond. */
const p50 = (values: readonly number[]) =>
  Math.round(
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    ) * 1000,
  ) / 1000;

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
  const samples = new Map<string, number[]>(Object.keys(setups).map((name) => [name, []]));
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    // Interleaved like the retrieval contenders: noise hits each setup alike.
    for (const [name, keep] of Object.entries(setups)) {
      const ms = await timedAndRolledBack(
        database,
        async (tx) => {
          for (const index of measured) if (!keep.includes(index)) await tx.execute(sql.raw(`DROP INDEX ${index}`));
        },
        async (tx) => {
          await tx.execute(sql`
            INSERT INTO memories (user_id, content, title, type, importance, embedding, embedding_model, provenance)
            SELECT user_id, content || ' (copy)', title, type, importance, embedding, embedding_model, provenance
            FROM memories WHERE user_id = ${userId}::uuid AND status = 'active'
            ORDER BY id OFFSET ${repeat * ROWS}::int LIMIT ${ROWS}::int`);
        },
      );
      samples.get(name)?.push(ms / ROWS);
    }
  }
  return {
    perRow: Object.fromEntries([...samples].map(([name, values]) => [name, p50(values)])),
    rows: ROWS,
    repeats: REPEATS,
  };
}

/** The statement triggers that keep memory_stats (migration 0032). */
const STATS_TRIGGERS = ["memory_stats_insert", "memory_stats_update", "memory_stats_delete", "memory_stats_truncate"];

export interface StatsWriteCost {
  /** ms per row, p50 over the repeats: `with` the memory_stats triggers, `without` them, for each way of writing. */
  perRow: Record<"one row per statement" | "rows in one statement", { with: number; without: number }>;
  rows: number;
  repeats: number;
}

/**
 * What a memory write pays for memory_stats: the user's rows copied with and without its triggers (disabled inside
 * the transaction, which is rolled back), as an extraction writes them (one INSERT each) and as an import page does
 * (one INSERT for all). A statement trigger's cost falls on each statement, so the first is its worst case.
 */
export async function statsWriteCost(database: Database, userId: string): Promise<StatsWriteCost> {
  const ways = ["one row per statement", "rows in one statement"] as const;
  const samples = new Map<string, number[]>(
    ways.flatMap((way) => [`${way} with`, `${way} without`]).map((k) => [k, []]),
  );
  // The rows to copy are chosen before the clock starts, so each statement is an insert and a primary-key read.
  const ids = (
    await selectRows<{ id: string }>(
      database.db,
      sql`SELECT id FROM memories WHERE user_id = ${userId}::uuid AND status = 'active' ORDER BY id LIMIT ${REPEATS * ROWS}::int`,
    )
  ).map((row) => row.id);
  const copy = (chosen: readonly string[]) => sql`
    INSERT INTO memories (user_id, content, title, type, importance, embedding, embedding_model, provenance)
    SELECT user_id, content || ' (copy)', title, type, importance, embedding, embedding_model, provenance
    FROM memories WHERE id IN (${sql.join(
      chosen.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`;
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const chosen = ids.slice(repeat * ROWS, (repeat + 1) * ROWS);
    for (const way of ways) {
      for (const triggers of ["with", "without"] as const) {
        const ms = await timedAndRolledBack(
          database,
          async (tx) => {
            if (triggers === "without")
              for (const name of STATS_TRIGGERS)
                await tx.execute(sql.raw(`ALTER TABLE memories DISABLE TRIGGER ${name}`));
          },
          async (tx) => {
            if (way === "rows in one statement") await tx.execute(copy(chosen));
            else for (const id of chosen) await tx.execute(copy([id]));
          },
        );
        samples.get(`${way} ${triggers}`)?.push(ms / chosen.length);
      }
    }
  }
  const median = (key: string) => p50(samples.get(key) ?? []);
  return {
    perRow: {
      "one row per statement": {
        with: median("one row per statement with"),
        without: median("one row per statement without"),
      },
      "rows in one statement": {
        with: median("rows in one statement with"),
        without: median("rows in one statement without"),
      },
    },
    rows: ROWS,
    repeats: REPEATS,
  };
}
