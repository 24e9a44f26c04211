/**
 * The retrieval contenders, each answering "the user's top 5 memories for this question":
 * - the default strategy (hybrid) as the chat turn runs it, and forced to each of its two paths:
 *   the exact statement (every comparable memory scored) and the approximate one (the HNSW index's
 *   candidates scored; lib/memory/retrieval/retrieve.ts); the seed's weighted strategy, exact;
 * - the in-app baseline: the earlier app's design — fetch every vector of the user and score in
 *   application code (here TypeScript with score.ts, the reference formula; there Python);
 * - the floor: a bare pass over the user's stored vectors (what an exact scan cannot beat).
 */
import { sql } from "drizzle-orm";
import { approximateRetrievalConfig, retrievalStrategies } from "@/core/config";
import { type Db, selectRows } from "@/db/client";
import { forEmbedder } from "@/lib/memory/retrieval/assembly-config";
import { retrieveSemantic, type SemanticConfig } from "@/lib/memory/retrieval/retrieve";
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

/** A contender's answer: the ids of its top 5, in order. */
export interface Answer {
  top: string[];
  /** The statement's path (retrieve.ts): "approximate" when the index's candidates were scored. */
  path?: "exact" | "approximate";
}

export type Contender = (context: RetrievalContext, question: Question) => Promise<Answer>;

const TOP = 5;

function strategy(name: "hybrid" | "weighted", embeddingModel: string): SemanticConfig {
  return forEmbedder(retrievalStrategies[name], embeddingModel) as SemanticConfig;
}

/**
 * `name`'s statement: as the chat turn runs it (`path` "auto": the exact statement up to core/config's
 * crossover, the approximate one above it on Postgres), or always the exact one, or always the
 * approximate one (the crossover at 0; on PGlite, which has no index, that is the exact one again).
 */
export function statement(name: "hybrid" | "weighted", path: "auto" | "exact" | "approximate" = "auto"): Contender {
  const approximate =
    path === "auto"
      ? approximateRetrievalConfig
      : path === "exact"
        ? null
        : { ...approximateRetrievalConfig, minMemories: 0 };
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
    return {
      top: result.candidates.filter((candidate) => candidate.selected).map((candidate) => candidate.id),
      path: result.path,
    };
  };
}

/** The earlier app's design: every vector of the user to the application, scored there (weighted). */
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

/**
 * The floor: a bare pass over the same user's stored vectors, reading each one and computing
 * nothing (`vector_dims`) — the physical limit of any exact scan of them here. No top 5.
 */
export const floorPass: Contender = async ({ db, userId, embeddingModel }) => {
  await selectRows(
    db,
    sql`SELECT sum(vector_dims(embedding)) AS dims FROM memories
        WHERE user_id = ${userId} AND status = 'active' AND embedding_model = ${embeddingModel}`,
  );
  return { top: [] };
};

/** The share of `expected`'s ids that `actual` also has (recall@5), and whether the two lists are identical. */
export function agreement(expected: readonly string[], actual: readonly string[]): { recall: number; same: boolean } {
  const found = expected.filter((id) => actual.includes(id)).length;
  return {
    recall: expected.length === 0 ? 1 : found / expected.length,
    same: expected.length === actual.length && expected.every((id, i) => actual[i] === id),
  };
}
