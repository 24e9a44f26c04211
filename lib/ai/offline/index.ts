/**
 * The offline provider: what Lifeline runs on when no model key is configured (the embedded
 * default, every new user's first experience, and every test that needs no scripted model).
 * It is a real, labelled implementation, chosen by configuration in lib/ai/registry.ts — never
 * a test double, never a branch on NODE_ENV.
 *
 * Contract
 * - `offlineLanguageModel` ("offline/lifeline-offline-1", model.ts) is an AI SDK LanguageModelV4:
 *   deterministic, no network, streams like a provider (paced by LIFELINE_OFFLINE_DELAY_MS) and
 *   honours abort signals and maxOutputTokens.
 *   - Text: it answers the newest user message from the memory lines of the system prompt that
 *     retrieval matched to it — only what the model received, exactly as a remote model would
 *     (chat.ts). Its replies never contradict what it received (a matched memory answers, said
 *     plainly; a line only at hand — pinned, from this conversation — is not recited; memory off →
 *     it never claims to have saved anything), and once per conversation it says in one line what
 *     it is and how to connect a real model.
 *   - Tools: offered the memory tools (lib/memory/retrieval/tool-contract.ts), it calls
 *     list_memories for overview questions ("what do you remember about me?", "what are my
 *     goals?"), then answers from the tool results in the prompt. It calls no other tool.
 *   - Structured outputs, by `responseFormat.name`: memory_extraction (extractor.ts),
 *     conversation_title (extractor.ts) and memory_consolidation (consolidation.ts). Their input is
 *     the structured hand-off the pipeline sends beside the prompt (providerOptions.lifeline,
 *     lib/memory/extraction/schema.ts); a call without one is read back from a builder-made prompt.
 *     The output is checked by the same zod schemas as any model's.
 * - Embedders (`offlineEmbeddingModels`, by id), AI SDK EmbeddingModelV4s: deterministic,
 *   unit-norm, EMBEDDING_DIMENSIONS long, each pinned to its id by a checksum test (changing one
 *   means a new id, and stored memories are re-embedded).
 *   - "offline/wordvec-glove-v2" (wordvec-embedder.ts), the default: pre-trained GloVe word
 *     vectors (a committed 5.8 MB asset read on first use, word-vectors.ts), frequency-weighted and
 *     centred, fused with the hashed features below so exact words and names still count.
 *   - "offline/wordvec-glove-v1": the same uncentred, at another share (the default before v2);
 *     kept for evaluation side by side and selectable with LIFELINE_EMBEDDING_MODEL.
 *   - "offline/hash-ngram-v1" (embedder.ts): hashed word, bigram, character n-gram and concept
 *     features (text-features.ts) only; kept for evaluation side by side and selectable with
 *     LIFELINE_EMBEDDING_MODEL=hash-ngram-v1.
 * - Helpers: grammatical-person.ts (first ↔ second person), date-expressions.ts (relative dates
 *   resolved against the current date).
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
