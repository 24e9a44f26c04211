/**
 * Lifeline's default offline embedder ("offline/wordvec-glove-v1"): what a text means, from
 * pre-trained word vectors, fused with the hashed word features of hash-ngram-v1 (embedder.ts) so
 * that exact words and names still count. Deterministic, no network, EMBEDDING_DIMENSIONS long.
 *
 * - Meaning: the content words' GloVe vectors (word-vectors.ts), each weighted by its rarity —
 *   SIF, a / (a + p(w)), with p(w) estimated from the word's frequency rank by Zipf's law — summed
 *   and L2-normalised. Words the asset lacks (names, typos, rare words) add nothing here.
 * - Words: hash-ngram-v1's features (words, bigrams, character n-grams, concepts) in the other
 *   dimensions, L2-normalised.
 * - Layout: [√m · meaning (100 dims) | √(1 − m) · words (1,436 dims)], so the cosine of two texts
 *   is m · cos(meaning) + (1 − m) · cos(words). A text with no known word is all words.
 *
 * Every number was measured with `npm run eval` (docs/evaluation.md, "The word-vector embedder").
 * The algorithm and the asset are pinned to the id by a checksum test: changing either means a
 * new id, and stored memories are re-embedded (lib/memory/store/reembed.ts).
 */
import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { countTokens } from "@/lib/memory/tokens";
import { hashedFeatureVector } from "./embedder";
import { isStopword, tokenize } from "./text-features";
import { type WordVectors, wordVectors } from "./word-vectors";

export const WORDVEC_EMBEDDING_MODEL_ID = "wordvec-glove-v1";

export interface WordVecSettings {
  /** m: the meaning part's share of the cosine. */
  meaningShare: number;
  /** SIF's a: smaller gives frequent words less weight. */
  sifA: number;
}

export const WORDVEC_SETTINGS: WordVecSettings = { meaningShare: 0.5, sifA: 1e-3 };

/** p(w) by Zipf's law from the frequency rank r (0-based) in a vocabulary of n words: 1 / ((r + 1) · H(n)). */
function zipfProbability(rank: number, vocabulary: number): number {
  const harmonic = Math.log(vocabulary) + 0.5772156649;
  return 1 / ((rank + 1) * harmonic);
}

/** The meaning part: SIF-weighted sum of the content words' vectors, unit length (all zeros if none is known). */
export function meaningVector(text: string, vectors: WordVectors, sifA: number): number[] {
  const tokens = tokenize(text);
  const content = tokens.filter((token) => !isStopword(token));
  const words = content.length > 0 ? content : tokens;
  const sum = new Array<number>(vectors.dims).fill(0);
  for (const word of words) {
    const row = vectors.indexOf(word) ?? vectors.indexOf(word.replace(/'/g, ""));
    if (row === undefined) continue;
    const weight = sifA / (sifA + zipfProbability(vectors.rank(row), vectors.sourceWords));
    vectors.addTo(sum, row, weight);
  }
  const norm = Math.sqrt(sum.reduce((s, x) => s + x * x, 0));
  return norm > 0 ? sum.map((x) => x / norm) : sum;
}

/** Embeds `text` with the given settings and word vectors (the default: the committed asset). */
export function embedWordVec(
  text: string,
  settings: WordVecSettings = WORDVEC_SETTINGS,
  vectors: WordVectors = wordVectors(),
): number[] {
  const meaning = meaningVector(text, vectors, settings.sifA);
  const words = hashedFeatureVector(text, EMBEDDING_DIMENSIONS - vectors.dims);
  const known = meaning.some((x) => x !== 0);
  const m = known ? Math.sqrt(settings.meaningShare) : 0;
  const w = known ? Math.sqrt(1 - settings.meaningShare) : 1;
  const vector = new Array<number>(EMBEDDING_DIMENSIONS);
  for (let d = 0; d < meaning.length; d++) vector[d] = m * (meaning[d] as number);
  for (let d = 0; d < words.length; d++) vector[meaning.length + d] = w * (words[d] as number);
  return vector;
}

/** A word-vector embedder as an AI SDK embedding model (the default one: `wordvecEmbeddingModel`). */
export function createWordVecEmbeddingModel(
  modelId: string = WORDVEC_EMBEDDING_MODEL_ID,
  settings: WordVecSettings = WORDVEC_SETTINGS,
  vectors: () => WordVectors = () => wordVectors(),
): EmbeddingModelV3 {
  return {
    specificationVersion: "v3",
    provider: "offline",
    modelId,
    maxEmbeddingsPerCall: Number.POSITIVE_INFINITY,
    supportsParallelCalls: true,
    async doEmbed({ values, abortSignal }) {
      abortSignal?.throwIfAborted();
      const loaded = vectors();
      return {
        embeddings: values.map((value) => embedWordVec(value, settings, loaded)),
        usage: { tokens: values.reduce((sum, value) => sum + countTokens(value), 0) },
        warnings: [],
      };
    },
  };
}

export const wordvecEmbeddingModel: EmbeddingModelV3 = createWordVecEmbeddingModel();
