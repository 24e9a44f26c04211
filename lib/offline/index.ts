/**
 * The offline provider: what Lifeline runs on when no model key is configured. A real, labelled
 * implementation chosen by configuration in lib/ai/registry.ts, never a test double or a NODE_ENV
 * branch. Dependencies point one way: nothing in lib/memory imports this folder.
 */
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { OFFLINE_EMBEDDING_MODEL_ID, offlineEmbeddingModel } from "./embedder";
import {
  WORDVEC_EMBEDDING_MODEL_ID,
  WORDVEC_V1_EMBEDDING_MODEL_ID,
  WORDVEC_V2_EMBEDDING_MODEL_ID,
  wordvecEmbeddingModel,
  wordvecV1EmbeddingModel,
  wordvecV2EmbeddingModel,
} from "./wordvec-embedder";

export { OFFLINE_EMBEDDING_MODEL_ID as HASH_EMBEDDING_MODEL_ID } from "./embedder";
export {
  WORDVEC_EMBEDDING_MODEL_ID,
  WORDVEC_V1_EMBEDDING_MODEL_ID,
  WORDVEC_V2_EMBEDDING_MODEL_ID,
} from "./wordvec-embedder";

export const DEFAULT_OFFLINE_EMBEDDING_MODEL_ID = WORDVEC_EMBEDDING_MODEL_ID;

export const offlineEmbeddingModels: ReadonlyMap<string, EmbeddingModelV4> = new Map([
  [WORDVEC_EMBEDDING_MODEL_ID, wordvecEmbeddingModel],
  [WORDVEC_V2_EMBEDDING_MODEL_ID, wordvecV2EmbeddingModel],
  [WORDVEC_V1_EMBEDDING_MODEL_ID, wordvecV1EmbeddingModel],
  [OFFLINE_EMBEDDING_MODEL_ID, offlineEmbeddingModel],
]);
export { OFFLINE_CHAT_MODEL_ID, offlineLanguageModel } from "./model";
