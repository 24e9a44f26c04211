/**
 * Seeding a benchmark database: the measured user's N memories interleaved on disk with other users'
 * copies (made server-side, so 10 × N rows need only N embeddings).
 */
import { sql } from "drizzle-orm";
import { type Database, selectRows } from "@/db/client";
import { halfvecValue } from "@/db/queries/vectors";
import type { RunProgress } from "@/eval/run";
import type { MemoryEmbedder } from "@/lib/memory/store/memory-store";
import { generateMemories } from "./corpus";
import type { HnswIndex } from "./retrieval";

export const OTHER_USERS = 20;

/** Built after seeding (one build is many times faster than a million graph inserts) and kept with the cached database. */
export async function buildHnswIndexes(database: Database, indexes: readonly HnswIndex[]): Promise<void> {
  for (const index of indexes) {
    const [present] = await database.query(`SELECT 1 FROM pg_indexes WHERE indexname = '${index.name}'`);
    if (present) continue;
    console.error(`building ${index.name} (m ${index.m}, ef_construction ${index.efConstruction})…`);
    await database.db.transaction(async (tx) => {
      // The graph of 1M vectors outgrows the default 64 MB: built in memory it takes minutes, not hours.
      await tx.execute(sql.raw("SET LOCAL maintenance_work_mem = '3GB'"));
      await tx.execute(
        sql.raw(
          `CREATE INDEX ${index.name} ON memories USING hnsw (${index.expression} halfvec_cosine_ops) ` +
            `WITH (m = ${index.m}, ef_construction = ${index.efConstruction})`,
        ),
      );
    });
  }
}

const BATCH = 250;
const DAY_MS = 86_400_000;

export async function seedMemories(
  database: Database,
  input: {
    userId: string;
    others: readonly string[];
    count: number;
    seed: number;
    embedder: MemoryEmbedder;
    now: Date;
  },
  progress: RunProgress,
): Promise<void> {
  const { db } = database;
  const memories = generateMemories(input.seed, input.count);
  progress.start(memories.length, `seed ${input.count}`);
  for (let offset = 0; offset < memories.length; offset += BATCH) {
    const batch = memories.slice(offset, offset + BATCH);
    const vectors = await input.embedder.embed(batch.map((memory) => memory.content));
    const rows = batch.map((memory, i) => {
      const updatedAt = new Date(input.now.getTime() - memory.ageDays * DAY_MS).toISOString();
      return sql`(${input.userId}::uuid, ${memory.content}, ${memory.type}::memory_type, ${memory.importance}::real,
        ${halfvecValue(vectors[i] ?? [])}, ${input.embedder.model}, 'user_stated', ${updatedAt}::timestamptz, ${updatedAt}::timestamptz)`;
    });
    const inserted = await selectRows<{ id: string }>(
      db,
      sql`INSERT INTO memories (user_id, content, type, importance, embedding, embedding_model, provenance, created_at, updated_at)
        VALUES ${sql.join(rows, sql`, `)} RETURNING id`,
    );
    const ids = inserted.map((row) => row.id);
    if (input.others.length > 0) {
      // Each other user gets a random half of this batch: their rows land between the measured user's.
      await db.execute(
        sql`INSERT INTO memories (user_id, content, type, importance, embedding, embedding_model, provenance, created_at, updated_at)
            SELECT o.id, m.content, m.type, m.importance, m.embedding, m.embedding_model, m.provenance, m.created_at, m.updated_at
            FROM unnest(${`{${input.others.join(",")}}`}::uuid[]) AS o(id)
            CROSS JOIN LATERAL (
              SELECT * FROM memories
              WHERE id = ANY(${`{${ids.join(",")}}`}::uuid[])
              ORDER BY md5(id::text || o.id::text)
              LIMIT ${Math.ceil(ids.length / 2)}
            ) m`,
      );
    }
    progress.tick(batch.length);
  }
  await database.query("ANALYZE memories");
}
