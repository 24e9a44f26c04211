/**
 * The retrieval contenders for "the user's top 5 memories": the chat turn's statement (and each of
 * its exact and approximate paths), the in-app baseline of scoring every vector in application
 * code, and the floor, a bare pass over the stored vectors that no exact scan can beat.
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

export interface Answer {
  top: string[];
  path?: "exact" | "approximate";
}

export type Contender = (context: RetrievalContext, question: Question) => Promise<Answer>;

const TOP = 5;

function strategy(name: "hybrid" | "weighted", embeddingModel: string): SemanticConfig {
  return forEmbedder(retrievalStrategies[name], embeddingModel) as SemanticConfig;
}

/** On PGlite, which has no index, "approximate" is the exact statement again. */
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

/** Reads each stored vector and computes nothing (`vector_dims`): the physical limit of an exact scan here. */
export const floorPass: Contender = async ({ db, userId, embeddingModel }) => {
  await selectRows(
    db,
    sql`SELECT sum(vector_dims(embedding)) AS dims FROM memories
        WHERE user_id = ${userId} AND status = 'active' AND embedding_model = ${embeddingModel}`,
  );
  return { top: [] };
};

export function agreement(expected: readonly string[], actual: readonly string[]): { recall: number; same: boolean } {
  const found = expected.filter((id) => actual.includes(id)).length;
  return {
    recall: expected.length === 0 ? 1 : found / expected.length,
    same: expected.length === actual.length && expected.every((id, i) => actual[i] === id),
  };
}
