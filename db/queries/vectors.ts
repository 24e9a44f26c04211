/**
 * Embeddings as pgvector takes them: one check of what can be stored and compared, one SQL form.
 *
 * memories.embedding is a `halfvec(1536)` (half precision, migration 0011 `halfvec_embeddings`): every
 * component is stored rounded to IEEE 754 binary16, and the query is compared as a halfvec too, so
 * the reference scorer (score.ts) computes on the same rounded values (`Math.f16round`).
 */
import { type SQL, sql } from "drizzle-orm";
import { EMBEDDING_DIMENSIONS } from "@/core/config";

/** The largest finite half-precision value: a component beyond ±65504 cannot be stored. */
export const HALF_MAX = 65504;

/**
 * A component as memories.embedding stores it: pgvector reads the text form's number as a float4,
 * then rounds that to half precision (to nearest even) — so this rounds the same two steps.
 */
export function half(x: number): number {
  return Math.f16round(Math.fround(x));
}

/** Why `embedding` cannot be stored or compared ("has 3 dimensions, expected 1536", …), or null when it can. */
export function vectorProblem(embedding: readonly number[]): string | null {
  if (embedding.length !== EMBEDDING_DIMENSIONS) {
    return `has ${embedding.length} dimensions, expected ${EMBEDDING_DIMENSIONS}`;
  }
  if (!embedding.every(Number.isFinite)) return "contains a non-finite number";
  const outside = embedding.findIndex((x) => Math.abs(x) > HALF_MAX);
  if (outside >= 0) {
    return `has a component outside half precision's range ±${HALF_MAX} (${embedding[outside]} at index ${outside}); embeddings are stored as halfvec`;
  }
  if (embedding.every((x) => x === 0)) return "is the zero vector";
  if (embedding.every((x) => half(x) === 0)) {
    return "is the zero vector in half precision (every component is below 6e-8 in magnitude); embeddings are stored as halfvec";
  }
  return null;
}

export function vectorLiteral(embedding: readonly number[], what = "embedding"): string {
  const problem = vectorProblem(embedding);
  if (problem) throw new Error(`${what} ${problem}`);
  return `[${embedding.join(",")}]`;
}

export function halfvecValue(embedding: readonly number[], what = "embedding"): SQL {
  return sql`${vectorLiteral(embedding, what)}::halfvec(${sql.raw(String(EMBEDDING_DIMENSIONS))})`;
}
