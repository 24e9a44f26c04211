/**
 * Lifeline's default offline embedder: SIF-weighted GloVe meaning fused with hash-ngram-v1's word
 * features so exact words and names still count; cosine = m · cos(meaning) + (1 − m) · cos(words).
 * Word vectors are centred on the mean content word: uncentred, unrelated texts had a cosine of
 * ~0.4 and the threshold could not tell them from related ones. Numbers measured with `npm run
 * eval`; the algorithm and asset are pinned to the id by a checksum test (a change means a new id).
 */
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { countTokens } from "@/lib/memory/tokens";
import { hashedFeatureVector } from "./embedder";
import { type Rotation, type RotationSettings, seededRotation } from "./rotation";
import { isStopword, tokenize } from "./text-features";
import { type WordVectors, wordVectors } from "./word-vectors";

/** v2 rotated: the same cosines, sign codes that rank (lib/offline/rotation.ts). */
export const WORDVEC_EMBEDDING_MODEL_ID = "wordvec-glove-v3";
/** Centred meaning, m = 0.4. */
export const WORDVEC_V2_EMBEDDING_MODEL_ID = "wordvec-glove-v2";
/** Uncentred, m = 0.5. */
export const WORDVEC_V1_EMBEDDING_MODEL_ID = "wordvec-glove-v1";

export interface WordVecSettings {
  meaningShare: number;
  /** SIF's a: smaller gives frequent words less weight. */
  sifA: number;
  centred: boolean;
  /** The last step: an orthogonal transform, so every dimension is dense and cosines are unchanged. */
  rotation?: RotationSettings;
}

export const WORDVEC_V2_SETTINGS: WordVecSettings = { meaningShare: 0.4, sifA: 1e-3, centred: true };
/** 1,536 = 3 blocks of 512; three rounds (two already mix every input into every output). */
export const WORDVEC_SETTINGS: WordVecSettings = {
  ...WORDVEC_V2_SETTINGS,
  rotation: { block: 512, rounds: 3, seed: 0x4c4c5633 },
};
export const WORDVEC_V1_SETTINGS: WordVecSettings = { meaningShare: 0.5, sifA: 1e-3, centred: false };

/** p(w) by Zipf's law from the frequency rank r (0-based) in a vocabulary of n words: 1 / ((r + 1) · H(n)). */
function zipfProbability(rank: number, vocabulary: number): number {
  const harmonic = Math.log(vocabulary) + 0.5772156649;
  return 1 / ((rank + 1) * harmonic);
}

/** SIF's weight of a word of frequency rank `rank`: a / (a + p(w)). */
function sifWeight(vectors: WordVectors, rank: number, sifA: number): number {
  return sifA / (sifA + zipfProbability(rank, vectors.sourceWords));
}

const contentMeans = new WeakMap<WordVectors, Map<number, readonly number[]>>();

/** Subtracting it from every word leaves an average sentence near 0; computed once per asset and `sifA`. */
export function contentMean(vectors: WordVectors, sifA: number): readonly number[] {
  const bySifA = contentMeans.get(vectors) ?? new Map<number, readonly number[]>();
  contentMeans.set(vectors, bySifA);
  const cached = bySifA.get(sifA);
  if (cached) return cached;
  const sum = new Array<number>(vectors.dims).fill(0);
  let total = 0;
  for (let row = 0; row < vectors.count; row++) {
    if (isStopword(vectors.word(row))) continue;
    const rank = vectors.rank(row);
    const weight = zipfProbability(rank, vectors.sourceWords) * sifWeight(vectors, rank, sifA);
    vectors.addTo(sum, row, weight);
    total += weight;
  }
  const mean = total > 0 ? sum.map((x) => x / total) : sum;
  bySifA.set(sifA, mean);
  return mean;
}

export function meaningVector(text: string, vectors: WordVectors, sifA: number, mean?: readonly number[]): number[] {
  const tokens = tokenize(text);
  const content = tokens.filter((token) => !isStopword(token));
  const words = content.length > 0 ? content : tokens;
  const sum = new Array<number>(vectors.dims).fill(0);
  let weights = 0;
  for (const word of words) {
    const row = vectors.indexOf(word) ?? vectors.indexOf(word.replace(/'/g, ""));
    if (row === undefined) continue;
    const weight = sifWeight(vectors, vectors.rank(row), sifA);
    vectors.addTo(sum, row, weight);
    weights += weight;
  }
  if (mean && weights > 0)
    for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) - weights * (mean[d] as number);
  const norm = Math.sqrt(sum.reduce((s, x) => s + x * x, 0));
  return norm > 0 ? sum.map((x) => x / norm) : sum.fill(0);
}

const rotations = new WeakMap<RotationSettings, Rotation>();

function rotationFor(settings: RotationSettings): Rotation {
  const cached = rotations.get(settings) ?? seededRotation(EMBEDDING_DIMENSIONS, settings);
  rotations.set(settings, cached);
  return cached;
}

export function embedWordVec(
  text: string,
  settings: WordVecSettings = WORDVEC_SETTINGS,
  vectors: WordVectors = wordVectors(),
): number[] {
  const mean = settings.centred ? contentMean(vectors, settings.sifA) : undefined;
  const meaning = meaningVector(text, vectors, settings.sifA, mean);
  const words = hashedFeatureVector(text, EMBEDDING_DIMENSIONS - vectors.dims);
  const known = meaning.some((x) => x !== 0);
  const m = known ? Math.sqrt(settings.meaningShare) : 0;
  const w = known ? Math.sqrt(1 - settings.meaningShare) : 1;
  const vector = new Array<number>(EMBEDDING_DIMENSIONS);
  for (let d = 0; d < meaning.length; d++) vector[d] = m * (meaning[d] as number);
  for (let d = 0; d < words.length; d++) vector[meaning.length + d] = w * (words[d] as number);
  return settings.rotation ? rotationFor(settings.rotation).apply(vector) : vector;
}

export function createWordVecEmbeddingModel(
  modelId: string = WORDVEC_EMBEDDING_MODEL_ID,
  settings: WordVecSettings = WORDVEC_SETTINGS,
  vectors: () => WordVectors = () => wordVectors(),
): EmbeddingModelV4 {
  return {
    specificationVersion: "v4",
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

export const wordvecEmbeddingModel: EmbeddingModelV4 = createWordVecEmbeddingModel();
export const wordvecV2EmbeddingModel: EmbeddingModelV4 = createWordVecEmbeddingModel(
  WORDVEC_V2_EMBEDDING_MODEL_ID,
  WORDVEC_V2_SETTINGS,
);
export const wordvecV1EmbeddingModel: EmbeddingModelV4 = createWordVecEmbeddingModel(
  WORDVEC_V1_EMBEDDING_MODEL_ID,
  WORDVEC_V1_SETTINGS,
);
