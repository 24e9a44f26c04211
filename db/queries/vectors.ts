/** Embeddings as pgvector takes them: one check of what can be stored and compared, one text form. */
import { EMBEDDING_DIMENSIONS } from "@/core/config";

/** Why `embedding` cannot be stored or compared ("has 3 dimensions, expected 1536", …), or null when it can. */
export function vectorProblem(embedding: readonly number[]): string | null {
  if (embedding.length !== EMBEDDING_DIMENSIONS) {
    return `has ${embedding.length} dimensions, expected ${EMBEDDING_DIMENSIONS}`;
  }
  if (!embedding.every(Number.isFinite)) return "contains a non-finite number";
  if (embedding.every((x) => x === 0)) return "is the zero vector";
  return null;
}

/** pgvector's text form of `embedding`, after checking it can be compared at all; `what` names it in the error. */
export function vectorLiteral(embedding: readonly number[], what = "embedding"): string {
  const problem = vectorProblem(embedding);
  if (problem) throw new Error(`${what} ${problem}`);
  return `[${embedding.join(",")}]`;
}
