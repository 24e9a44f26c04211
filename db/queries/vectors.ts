/** memories.embedding is halfvec(1536): the reference scorer computes on the same rounded values (`Math.f16round`). */
import { type SQL, sql } from "drizzle-orm";
import { EMBEDDING_DIMENSIONS } from "@/core/config";

export const HALF_MAX = 65504;

/** pgvector reads the text form as a float4, then rounds to half precision: this rounds the same two steps. */
export function half(x: number): number {
  return Math.f16round(Math.fround(x));
}

/** The text a memory's vector describes. The title makes a memory findable by questions that do not repeat its content (measured: docs/extraction.md). */
export function memoryEmbeddingText(memory: { title: string | null; content: string }): string {
  const title = memory.title?.trim();
  return title ? `${title}: ${memory.content}` : memory.content;
}

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
