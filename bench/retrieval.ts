/**
 * The retrieval contenders for "the user's top 5 memories": the chat turn's statement (and each of
 * its exact and two-stage paths), the retired HNSW candidate pass on bench-built indexes, the in-app
 * baseline of scoring every vector in application code, and two floors: a bare read of the stored
 * vectors, and a pass computing each distance and keeping only the minimum.
 */
import { type SQL, sql } from "drizzle-orm";
import { approximateRetrievalConfig, retrievalStrategies } from "@/core/config";
import { type Db, selectRows } from "@/db/client";
import { halfvecValue } from "@/db/queries/vectors";
import { forEmbedder } from "@/lib/memory/retrieval/assembly-config";
import {
  retrieveSemantic,
  type SemanticConfig,
  type SemanticResult,
  scoreCandidates,
} from "@/lib/memory/retrieval/retrieve";
import { cosineSimilarity, rankCandidates } from "@/lib/memory/retrieval/score";

export interface Question {
  text: string;
  embedding: number[];
}

export interface RetrievalContext {
  db: Db;
  userId: string;
  embeddingModel: string;
  now: Date;
}

export interface Answer {
  top: string[];
  path?: SemanticResult["path"] | "hnsw";
  /** An HNSW contender whose index returned fewer than asked, so the exact statement answered. */
  fellBack?: boolean;
}

export type Contender = (context: RetrievalContext, question: Question) => Promise<Answer>;

const TOP = 5;

function strategy(name: "hybrid" | "weighted", embeddingModel: string): SemanticConfig {
  return forEmbedder(retrievalStrategies[name], embeddingModel) as SemanticConfig;
}

/** `candidates`: K for the two-stage path (the configured one by default). */
export function statement(
  name: "hybrid" | "weighted",
  path: "auto" | "exact" | "two-stage" = "auto",
  candidates = approximateRetrievalConfig.candidates,
): Contender {
  const approximate =
    path === "auto" ? approximateRetrievalConfig : path === "exact" ? null : { minMemories: 0, candidates };
  return async ({ db, userId, embeddingModel, now }, question) => {
    const config = strategy(name, embeddingModel);
    const result = await retrieveSemantic(db, {
      userId,
      embedding: question.embedding,
      embeddingModel,
      text: question.text,
      now,
      config,
      approximate,
    });
    return { top: selectedIds(result), path: result.path };
  };
}

const selectedIds = (result: SemanticResult) =>
  result.candidates.filter((candidate) => candidate.selected).map((candidate) => candidate.id);

/** An HNSW index the bench builds for the contender of the same name (migrations build none). */
export interface HnswIndex {
  name: string;
  /** The indexed expression; the contender orders by it, so the planner takes this index. */
  expression: string;
  m: number;
  efConstruction: number;
}

export const HNSW_INDEXES: readonly HnswIndex[] = [
  { name: "bench_hnsw_m16", expression: "embedding", m: 16, efConstruction: 64 },
  // Cosine distance ignores length, so the normalised vector ranks alike and gives a second index its own expression.
  {
    name: "bench_hnsw_m32",
    expression: "(l2_normalize(embedding)::halfvec(1536))",
    m: 32,
    efConstruction: 128,
  },
];

/**
 * The candidate pass retrieval shipped before the two-stage one: the index's 200 nearest, walked with an
 * iterative scan filtered to the user (ef_search 200, max_scan_tuples 20,000, sorts and JIT off), scored by
 * the same formula; where the index returned fewer than asked, the exact statement answered, as it did then.
 */
const HNSW_SCAN_SETTINGS =
  "SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = 200; " +
  "SET LOCAL hnsw.max_scan_tuples = 20000; SET LOCAL enable_sort = off; SET LOCAL jit = off";

export function hnswStatement(index: HnswIndex): Contender {
  const asked = 200;
  return async ({ db, userId, embeddingModel, now }, question) => {
    const config = strategy("hybrid", embeddingModel);
    const query = { userId, embedding: question.embedding, embeddingModel, text: question.text, now, config };
    const vector = halfvecValue(question.embedding);
    // SET LOCAL: the scan's settings hold for this transaction only.
    const result = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(HNSW_SCAN_SETTINGS));
      return scoreCandidates(tx as unknown as Db, query, vector, {
        path: "two-stage",
        nearest: sql`SELECT id FROM memories
        WHERE user_id = ${userId}::uuid AND status = 'active' AND embedding_model = ${embeddingModel}
          AND embedding IS NOT NULL
        ORDER BY ${sql.raw(index.expression)} <=> ${vector}
        LIMIT ${asked}::int`,
        asked,
        index: index.name,
        minMemories: 0,
      });
    });
    if ((result.index?.returned ?? 0) >= Math.min(asked, result.index?.memories ?? 0))
      return { top: selectedIds(result), path: "hnsw" };
    const exact = await retrieveSemantic(db, { ...query, approximate: null });
    return { top: selectedIds(exact), path: "exact", fellBack: true };
  };
}

export const inAppBaseline: Contender = async ({ db, userId, embeddingModel, now }, question) => {
  const rows = await selectRows<{ id: string; embedding: string; importance: number; updated_at: string | Date }>(
    db,
    sql`SELECT id, embedding::text AS embedding, importance, updated_at FROM memories
        WHERE user_id = ${userId} AND status = 'active' AND embedding_model = ${embeddingModel}`,
  );
  const config = strategy("weighted", embeddingModel);
  const ranked = rankCandidates(
    rows.map((row) => ({
      id: row.id,
      similarity: cosineSimilarity(question.embedding, JSON.parse(row.embedding) as number[]),
      importance: row.importance,
      updatedAt: new Date(row.updated_at),
    })),
    now,
    config,
  );
  return { top: ranked.slice(0, TOP).map((candidate) => candidate.id) };
};

/** The read pass: reads each stored vector and computes nothing (`vector_dims`). */
export const floorPass: Contender = async ({ db, userId, embeddingModel }) => {
  await selectRows(
    db,
    sql`SELECT sum(vector_dims(embedding)) AS dims FROM memories
        WHERE user_id = ${userId} AND status = 'active' AND embedding_model = ${embeddingModel}`,
  );
  return { top: [] };
};

/** The distance pass: every cosine distance computed, only their minimum kept — the floor of an exact statement. */
export const distancePass: Contender = async ({ db, userId, embeddingModel }, question) => {
  await selectRows(db, distanceStatement(userId, embeddingModel, question.embedding));
  return { top: [] };
};

/**
 * Every distance computed, the minimum kept. The subquery fences the aggregate: a bare `min(embedding <=> q)` over
 * the table is answered as `ORDER BY … LIMIT 1`, which an HNSW index on the column (a bench database built at
 * `--hnsw-sizes`) answers by walking its graph, approximately, without computing the distances this pass stands for.
 */
export function distanceStatement(userId: string, embeddingModel: string, embedding: readonly number[]): SQL {
  return sql`SELECT min(distance) AS nearest
        FROM (SELECT embedding <=> ${halfvecValue(embedding)} AS distance FROM memories
              WHERE user_id = ${userId} AND status = 'active' AND embedding_model = ${embeddingModel}
              OFFSET 0) computed`;
}

export function agreement(expected: readonly string[], actual: readonly string[]): { recall: number; same: boolean } {
  const found = expected.filter((id) => actual.includes(id)).length;
  return {
    recall: expected.length === 0 ? 1 : found / expected.length,
    same: expected.length === actual.length && expected.every((id, i) => actual[i] === id),
  };
}
