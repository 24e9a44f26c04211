/**
 * The vector part every similarity search over memories shares — the retrieval statement (exact
 * and approximate), consolidation's near-memory search and the memories page's search by meaning —
 * so that which memories are comparable, how similarity is computed and what a zero vector means
 * are decided once. Columns are qualified ("memories"."…"), so a statement may join other tables.
 */
import { type SQL, sql } from "drizzle-orm";
import { type MemoryStatus, memories } from "@/db/schema";

/** A user's memories in `statuses`. */
export function ownedBy(userId: string, statuses: readonly MemoryStatus[]): SQL {
  const list = sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  );
  return sql`${memories.userId} = ${userId}::uuid AND ${memories.status} IN (${list})`;
}

/**
 * Memories whose stored vector can be compared with a query's: embedded, and by the query's
 * embedder when it is named (vectors of different embedders live in unrelated spaces).
 */
export function comparableWith(embeddingModel: string | undefined): SQL {
  return embeddingModel === undefined
    ? sql`${memories.embedding} IS NOT NULL`
    : sql`${memories.embedding} IS NOT NULL AND ${memories.embeddingModel} = ${embeddingModel}`;
}

/** Cosine similarity of the stored vector to `vector` (a halfvecValue): NaN for a zero vector. */
export function similarityTo(vector: SQL): SQL<number> {
  return sql<number>`(1 - (${memories.embedding} <=> ${vector}))::float8`;
}

/** Nearest first, in the form pgvector's HNSW index can serve (`ORDER BY … <=> …`). */
export function nearestTo(vector: SQL): SQL {
  return sql`${memories.embedding} <=> ${vector}`;
}

/**
 * A similarity that is a number. NaN (a zero vector) sorts above every number in Postgres and
 * passes `>=`: such a memory is not comparable at all. NULL passes no comparison either.
 */
export function isComparableSimilarity(similarity: SQL): SQL {
  return sql`${similarity} <> 'NaN'::float8`;
}
