/**
 * Semantic branch: ONE SQL statement that filters, scores, ranks and (optionally) counts access.
 * The formula is the one in score.ts, which is the reference this query is tested against.
 */
import { sql } from "drizzle-orm";
import { type Db, selectRows } from "@/db/client";
import { EMBEDDING_DIMENSIONS } from "@/lib/config";
import type { RetrievedMemory } from "./memory-row";
import type { RankingConfig, ScoreComponents } from "./score";

export interface SemanticConfig extends RankingConfig {
  /** Rows returned in all: the selected ones plus the best of those that lost to the limit. */
  readonly traceCandidateLimit: number;
}

export interface SemanticCandidate extends RetrievedMemory, ScoreComponents {
  /** 1-based position among all of the user's above-threshold memories. */
  rank: number;
  /** rank ≤ semanticLimit; the others are listed only so the trace can show them as dropped by limit. */
  selected: boolean;
}

export interface SemanticResult {
  /** The top max(semanticLimit, traceCandidateLimit) above-threshold memories, by rank. */
  candidates: SemanticCandidate[];
  /** How many of the user's memories passed the threshold (may exceed `candidates.length`). */
  aboveThreshold: number;
}

export interface SemanticQuery {
  userId: string;
  /** The query embedding; EMBEDDING_DIMENSIONS finite numbers, not all zero. */
  embedding: readonly number[];
  /** The instant recency is measured from and last_accessed_at is set to. */
  now: Date;
  config: SemanticConfig;
  /** false (previews): nothing is written. Default true: selected memories get access_count + 1. */
  countAccess?: boolean;
}

interface SemanticRow extends Record<string, unknown> {
  id: string;
  similarity: number;
  importance: number;
  recency: number;
  score: number;
  rank: number;
  above_threshold: number;
  title: string | null;
  content: string;
  created_at_ms: number;
  updated_at_ms: number;
}

/**
 * The user's active, embedded memories whose similarity to `embedding` is ≥ the threshold,
 * scored and ranked; ranks 1…semanticLimit are selected and, unless `countAccess` is false,
 * get access_count + 1 and last_accessed_at = now in the same statement. updated_at is never
 * touched: reading a memory does not make it more recent.
 *
 * Performance: the plan is an exact scan of the user's rows via memories_user_status_idx, one
 * cosine distance per embedded memory, and a sort of the above-threshold ones — linear in the
 * user's memory count, which is fine for thousands. The HNSW index (memories_embedding_hnsw_idx)
 * is not used and should not be: it can only order by distance, not by this score, and it is
 * shared by all users, so `WHERE user_id = …` is a post-filter that (even with pgvector 0.8's
 * `hnsw.iterative_scan = relaxed_order` and a raised `hnsw.max_scan_tuples`) can return fewer
 * than all above-threshold rows — a recent, important memory just past the ef_search frontier
 * would be silently lost and the threshold would become approximate. If users ever hold
 * hundreds of thousands of memories, the route is a two-stage query (iterative HNSW for the
 * nearest N, then this scoring), with the trace saying the candidate set is approximate.
 */
export async function retrieveSemantic(db: Db, query: SemanticQuery): Promise<SemanticResult> {
  const { userId, now, config, countAccess = true } = query;
  const vector = toVectorLiteral(query.embedding);
  const at = now.toISOString();
  const listed = Math.max(config.semanticLimit, config.traceCandidateLimit);
  const { weights } = config;

  // Data-modifying CTE: `touched` runs exactly once, to completion, even though the final SELECT
  // does not read it; all parts see the same snapshot, so the SELECT reports pre-update rows.
  const rows = await selectRows<SemanticRow>(
    db,
    sql`
      WITH scored AS (
        SELECT id,
               1 - (embedding <=> ${vector}::vector) AS similarity,
               importance::float8 AS importance,
               1 - LEAST(1, GREATEST(0, floor(extract(epoch FROM (${at}::timestamptz - updated_at)) / 86400))::float8
                            / ${config.recencyWindowDays}::float8) AS recency
        FROM memories
        WHERE user_id = ${userId}::uuid AND status = 'active' AND embedding IS NOT NULL
      ),
      above AS (
        SELECT *,
               ${weights.similarity}::float8 * similarity
                 + ${weights.importance}::float8 * importance
                 + ${weights.recency}::float8 * recency AS score
        FROM scored
        -- NaN (a zero vector) sorts above every number in Postgres: exclude it explicitly.
        WHERE similarity >= ${config.similarityThreshold}::float8 AND similarity <> 'NaN'::float8
      ),
      ranked AS (
        SELECT id, similarity, importance, recency, score,
               row_number() OVER (ORDER BY score DESC, id)::int AS rank,
               count(*) OVER ()::int AS above_threshold
        FROM above
        ORDER BY rank
        LIMIT ${listed}::int
      ),
      touched AS (
        UPDATE memories
        SET access_count = access_count + 1, last_accessed_at = ${at}::timestamptz
        WHERE ${countAccess}::boolean AND id IN (SELECT id FROM ranked WHERE rank <= ${config.semanticLimit}::int)
        RETURNING id
      )
      SELECT r.id, r.similarity, r.importance, r.recency, r.score, r.rank, r.above_threshold,
             m.title, m.content,
             floor(extract(epoch FROM m.created_at) * 1000)::float8 AS created_at_ms,
             floor(extract(epoch FROM m.updated_at) * 1000)::float8 AS updated_at_ms
      FROM ranked r
      JOIN memories m ON m.id = r.id
      ORDER BY r.rank`,
  );

  return {
    candidates: rows.map((row) => ({
      id: row.id,
      title: row.title,
      content: row.content,
      importance: row.importance,
      createdAt: new Date(row.created_at_ms),
      updatedAt: new Date(row.updated_at_ms),
      similarity: row.similarity,
      recency: row.recency,
      score: row.score,
      rank: row.rank,
      selected: row.rank <= config.semanticLimit,
    })),
    aboveThreshold: rows[0]?.above_threshold ?? 0,
  };
}

/** pgvector's text form, after checking the embedding can be compared at all. */
function toVectorLiteral(embedding: readonly number[]): string {
  if (embedding.length !== EMBEDDING_DIMENSIONS) {
    throw new Error(`query embedding has ${embedding.length} dimensions, expected ${EMBEDDING_DIMENSIONS}`);
  }
  if (!embedding.every(Number.isFinite)) throw new Error("query embedding contains a non-finite number");
  if (embedding.every((x) => x === 0)) throw new Error("query embedding is the zero vector");
  return `[${embedding.join(",")}]`;
}
