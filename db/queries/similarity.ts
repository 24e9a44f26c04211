/** Decides once which memories are comparable and how similarity is computed. Columns are qualified for joins. */
import { type SQL, sql } from "drizzle-orm";
import { type MemoryStatus, memories } from "@/db/schema";

export function ownedBy(userId: string, statuses: readonly MemoryStatus[]): SQL {
  const list = sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  );
  return sql`${memories.userId} = ${userId}::uuid AND ${memories.status} IN (${list})`;
}

/** Vectors of different embedders live in unrelated spaces. */
export function comparableWith(embeddingModel: string | undefined): SQL {
  return embeddingModel === undefined
    ? sql`${memories.embedding} IS NOT NULL`
    : sql`${memories.embedding} IS NOT NULL AND ${memories.embeddingModel} = ${embeddingModel}`;
}

/** NaN for a zero vector. */
export function similarityTo(vector: SQL): SQL<number> {
  return sql<number>`(1 - (${memories.embedding} <=> ${vector}))::float8`;
}

/** Distance as an ordering (`ORDER BY … <=> …`): exact, as no vector index exists (migration 0025). */
export function nearestTo(vector: SQL): SQL {
  return sql`${memories.embedding} <=> ${vector}`;
}

/** NaN (a zero vector) sorts above every number in Postgres and passes `>=`; such a memory is not comparable. */
export function isComparableSimilarity(similarity: SQL): SQL {
  return sql`${similarity} <> 'NaN'::float8`;
}
