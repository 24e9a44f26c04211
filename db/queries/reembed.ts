/**
 * Vectors of different embedders are not comparable, so a memory of another embedder waits here until
 * lib/memory/store/reembed.ts re-embeds it. Maintenance across users: the batch queries take no owner, and
 * nothing they return leaves the process.
 */
import { type SQL, sql } from "drizzle-orm";
import { type Db, selectRows } from "@/db/client";
import type { MemoryStatus } from "@/db/schema";
import { halfvecValue } from "./vectors";

/** A memory with a blank title and content has nothing to embed and never waits. */
export function awaitsEmbedder(model: string): SQL {
  return sql`(embedding IS NULL OR embedding_model IS DISTINCT FROM ${model})
             AND (coalesce(title, '') || content) ~ '[^[:space:]]'`;
}

export async function countAwaitingEmbedder(
  db: Db,
  query: { model: string; userId?: string; statuses?: readonly MemoryStatus[] },
): Promise<number> {
  const owner = query.userId === undefined ? sql`` : sql`AND user_id = ${query.userId}::uuid`;
  const statuses =
    query.statuses === undefined
      ? sql``
      : sql`AND status IN (${sql.join(
          query.statuses.map((status) => sql`${status}::memory_status`),
          sql`, `,
        )})`;
  const [row] = await selectRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM memories WHERE ${awaitsEmbedder(query.model)} ${owner} ${statuses}`,
  );
  return row?.n ?? 0;
}

/** Null key: no vector recorded. */
export async function countAwaitingByEmbedder(
  db: Db,
  model: string,
): Promise<{ embeddingModel: string | null; count: number }[]> {
  const rows = await selectRows<{ embedding_model: string | null; n: number }>(
    db,
    sql`SELECT CASE WHEN embedding IS NULL THEN NULL ELSE embedding_model END AS embedding_model, count(*)::int AS n
        FROM memories WHERE ${awaitsEmbedder(model)}
        GROUP BY 1 ORDER BY n DESC, 1`,
  );
  return rows.map((row) => ({ embeddingModel: row.embedding_model, count: row.n }));
}

export interface ReembedCandidate {
  id: string;
  title: string | null;
  content: string;
  embeddingModel: string | null;
}

/** Keyset pagination: rows already re-embedded no longer match, so a new run still sees only what is left. */
export async function selectReembedBatch(
  db: Db,
  query: { model: string; after: string | null; limit: number },
): Promise<ReembedCandidate[]> {
  const after = query.after === null ? sql`` : sql`AND id > ${query.after}::uuid`;
  const rows = await selectRows<{ id: string; title: string | null; content: string; embedding_model: string | null }>(
    db,
    sql`SELECT id, title, content, embedding_model
        FROM memories
        WHERE ${awaitsEmbedder(query.model)} ${after}
        ORDER BY id
        LIMIT ${query.limit}::int`,
  );
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    content: row.content,
    embeddingModel: row.embedding_model,
  }));
}

export interface ReembeddedMemory extends ReembedCandidate {
  vector: readonly number[];
}

/**
 * Each vector is written only if its memory still has the title, content and embedding_model it was read with.
 * updated_at (recency) and history are untouched: re-embedding does not change the memory.
 */
export async function writeReembedBatch(
  db: Db,
  input: { model: string; memories: readonly ReembeddedMemory[] },
): Promise<string[]> {
  if (input.memories.length === 0) return [];
  const values = sql.join(
    input.memories.map(
      (memory) =>
        sql`(${memory.id}::uuid, ${memory.embeddingModel}::text, ${memory.title}::text, ${memory.content}::text,
             ${halfvecValue(memory.vector, `the new embedding of memory ${memory.id}`)})`,
    ),
    sql`, `,
  );
  const rows = await selectRows<{ id: string }>(
    db,
    sql`UPDATE memories AS m
        SET embedding = v.embedding, embedding_model = ${input.model}
        FROM (VALUES ${values}) AS v(id, seen_model, title, content, embedding)
        WHERE m.id = v.id
          AND m.embedding_model IS NOT DISTINCT FROM v.seen_model
          AND m.title IS NOT DISTINCT FROM v.title
          AND m.content = v.content
        RETURNING m.id`,
  );
  return rows.map((row) => row.id);
}
