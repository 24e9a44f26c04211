/**
 * Re-embedding after the embedder changes: which memories wait for the current embedder, and the
 * guarded write of their new vectors. Vectors of different embedders are not comparable, so
 * retrieval only compares memories whose embedding_model is the current embedder's id; the others
 * wait here until lib/memory/store/reembed.ts gives them a vector of the current embedder.
 *
 * Unlike the rest of db/queries this is maintenance across users (the re-embed script and the
 * start-up job): `selectReembedBatch` and `writeReembedBatch` take no owner, and nothing they
 * return leaves the process. `countAwaitingEmbedder` takes an owner when a user is shown the count.
 */
import { type SQL, sql } from "drizzle-orm";
import { type Db, selectRows } from "@/db/client";
import type { MemoryStatus } from "@/db/schema";
import { halfvecValue } from "./vectors";

/**
 * The memories (unqualified columns of `memories`) that `model` must embed before retrieval can
 * compare them: no vector, or a vector of another embedder (or of none recorded) — and a text to
 * embed. A memory whose title and content are blank has nothing to embed and never waits.
 * Retrieval's waiting count and the re-embed batches use this one predicate.
 */
export function awaitsEmbedder(model: string): SQL {
  return sql`(embedding IS NULL OR embedding_model IS DISTINCT FROM ${model})
             AND (coalesce(title, '') || content) ~ '[^[:space:]]'`;
}

/**
 * How many memories wait for `model`: of one user (`userId`), in some statuses (`statuses`), or
 * every memory. A scan of the user's rows (memories_user_status_idx), or of the table without one.
 */
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

/** How many memories each embedder made, for the memories waiting for `model` (null: no vector recorded). */
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
  /** embedding_model when read (null: none recorded). */
  embeddingModel: string | null;
}

/**
 * The next `limit` memories (any user, any status) waiting for `model`, by id after `after`
 * (keyset pagination). Rows already re-embedded no longer match, so a new run starts over from the
 * first id and still only sees what is left.
 */
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
 * Stores the new vectors in ONE statement, each only if its memory is still as it was read: same
 * title, same content (what the vector describes) and same embedding_model. A memory edited in
 * between (the user's edit re-embeds it itself) or re-embedded by another process keeps what it
 * has. Sets only embedding and embedding_model: updated_at — recency — and the history are the
 * memory's, and re-embedding does not change the memory. Returns the ids written.
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
