/**
 * The retrieval contenders, each answering "the user's top 5 memories for this question":
 * - the default strategy (hybrid) and the seed's weighted one, as the chat turn runs them
 *   (lib/memory/retrieval/retrieve.ts: one statement, every comparable memory scored);
 * - the in-app baseline: the earlier app's design — fetch every vector of the user and score in
 *   application code (here TypeScript with score.ts, the reference formula; there Python);
 * - the HNSW index alone: nearest by cosine, filtered to the user (no threshold, no score), with
 *   its recall against the exact nearest 5.
 */
import { sql } from "drizzle-orm";
import { retrievalStrategies } from "@/core/config";
import { type Db, selectRows } from "@/db/client";
import { vectorLiteral } from "@/db/queries/vectors";
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

/** A contender's answer: the ids of its top 5, in order (and, for a certifying statement, whether it certified them). */
export interface Answer {
  top: string[];
  certified?: boolean;
}

export type Contender = (context: RetrievalContext, question: Question) => Promise<Answer>;

const TOP = 5;

function strategy(name: "hybrid" | "weighted", embeddingModel: string): SemanticConfig {
  return forEmbedder(retrievalStrategies[name], embeddingModel) as SemanticConfig;
}

/** `name`'s statement as the chat turn runs it. */
export function statement(name: "hybrid" | "weighted"): Contender {
  return async ({ db, userId, embeddingModel, now }, question) => {
    const config = strategy(name, embeddingModel);
    const result = await retrieveSemantic(db, {
      userId,
      embedding: question.embedding,
      embeddingModel,
      text: question.text,
      now,
      config,
    });
    return { top: result.candidates.filter((candidate) => candidate.selected).map((candidate) => candidate.id) };
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

/** The HNSW index alone (pgvector's default ef_search 40, then the user filter). */
export const hnswNearest: Contender = async ({ db, userId, embeddingModel }, question) => {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`SELECT id FROM memories
        WHERE user_id = ${userId} AND status = 'active' AND embedding_model = ${embeddingModel}
        ORDER BY embedding <=> ${vectorLiteral(question.embedding)}::vector LIMIT ${TOP}`,
  );
  return { top: rows.map((row) => row.id) };
};

/** The exact nearest 5 (no index): what HNSW's recall is measured against. */
export async function exactNearest(context: RetrievalContext, question: Question): Promise<string[]> {
  const { db, userId, embeddingModel } = context;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_indexscan = off`);
    const rows = await selectRows<{ id: string }>(
      tx as unknown as Db,
      sql`SELECT id FROM memories
          WHERE user_id = ${userId} AND status = 'active' AND embedding_model = ${embeddingModel}
          ORDER BY embedding <=> ${vectorLiteral(question.embedding)}::vector LIMIT ${TOP}`,
    );
    return rows.map((row) => row.id);
  });
}

/** The share of `expected`'s ids that `actual` also has (recall@5), and whether the two lists are identical. */
export function agreement(expected: readonly string[], actual: readonly string[]): { recall: number; same: boolean } {
  const found = expected.filter((id) => actual.includes(id)).length;
  return {
    recall: expected.length === 0 ? 1 : found / expected.length,
    same: expected.length === actual.length && expected.every((id, i) => actual[i] === id),
  };
}
