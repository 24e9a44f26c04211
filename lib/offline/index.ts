/**
 * The offline provider: what Lifeline runs on when no model key is configured (the embedded
 * default, every new user's first experience, and every test that needs no scripted model).
 * It is a real, labelled implementation, chosen by configuration in lib/ai/registry.ts — never
 * a test double, never a branch on NODE_ENV.
 *
 * - `offlineLanguageModel` ("offline/lifeline-offline-1", model.ts): chat (chat.ts), the memory
 *   tools' list_memories, and the structured outputs memory_extraction and conversation_title
 *   (extractor.ts), memory_title (memory-title.ts) and memory_consolidation (consolidation.ts),
 *   checked by the same zod schemas as any model's.
 * - `offlineEmbeddingModels`, by id: "offline/wordvec-glove-v2", the default, and
 *   "offline/wordvec-glove-v1" (wordvec-embedder.ts); "offline/hash-ngram-v1" (embedder.ts). The
 *   older two stay for evaluation side by side and for LIFELINE_EMBEDDING_MODEL. Each is pinned to
 *   its id by a checksum test: changing one means a new id, and stored memories are re-embedded.
 *
 * Dependencies point one way: this folder reads lib/memory's contracts (schemas, prompt shapes,
 * the formatter's bullet in core/config); nothing in lib/memory imports it.
 */
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { OFFLINE_EMBEDDING_MODEL_ID, offlineEmbeddingModel } from "./embedder";
import {
  WORDVEC_EMBEDDING_MODEL_ID,
  WORDVEC_V1_EMBEDDING_MODEL_ID,
  wordvecEmbeddingModel,
  wordvecV1EmbeddingModel,
} from "./wordvec-embedder";

export { OFFLINE_EMBEDDING_MODEL_ID as HASH_EMBEDDING_MODEL_ID } from "./embedder";
export { WORDVEC_EMBEDDING_MODEL_ID, WORDVEC_V1_EMBEDDING_MODEL_ID } from "./wordvec-embedder";

/** The offline embedder used when none is chosen (LIFELINE_EMBEDDING_MODEL). */
export const DEFAULT_OFFLINE_EMBEDDING_MODEL_ID = WORDVEC_EMBEDDING_MODEL_ID;

/** Every offline embedder, by model id: the default first, then older to oldest. */
export const offlineEmbeddingModels: ReadonlyMap<string, EmbeddingModelV4> = new Map([
  [WORDVEC_EMBEDDING_MODEL_ID, wordvecEmbeddingModel],
  [WORDVEC_V1_EMBEDDING_MODEL_ID, wordvecV1EmbeddingModel],
  [OFFLINE_EMBEDDING_MODEL_ID, offlineEmbeddingModel],
]);
export { OFFLINE_CHAT_MODEL_ID, offlineLanguageModel } from "./model";
