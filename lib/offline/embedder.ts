/**
 * Lifeline's offline embedder ("offline/hash-ngram-v1"): feature hashing of content words, stems,
 * bigrams and character n-grams, with one fixed dimension per concept so the paraphrase signal
 * never collides. A text with no words maps to a fixed unit vector, never the zero vector, whose
 * cosine similarity is undefined (NaN in pgvector).
 */
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { countTokens } from "@/lib/memory/tokens";
import { CONCEPT_NAMES, conceptOf, isStopword, stem, tokenize } from "./text-features";

export const OFFLINE_EMBEDDING_MODEL_ID = "hash-ngram-v1";

const WEIGHTS = { concept: 0.8, word: 1.0, bigram: 0.5, charGramsPerWord: 0.5 } as const;
const CHAR_GRAM_SIZES = [3, 4, 5] as const;
const CONCEPT_SLOT = new Map(CONCEPT_NAMES.map((concept, i) => [concept, i]));
const EMPTY_TEXT_FEATURE = "empty:";

type Feature = { index: number; sign: 1 | -1; weight: number; count: number };

/** FNV-1a over UTF-16 code units, finished with murmur3's fmix32 for good avalanche. */
function hash32(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

class FeatureBag {
  readonly features = new Map<string, Feature>();
  constructor(private readonly size: number) {}

  private add(key: string, weight: number, place: () => Pick<Feature, "index" | "sign">): void {
    const existing = this.features.get(key);
    if (existing) existing.count += 1;
    else this.features.set(key, { ...place(), weight, count: 1 });
  }

  addHashed(key: string, weight: number): void {
    this.add(key, weight, () => {
      const h = hash32(key);
      return { index: CONCEPT_NAMES.length + (h % (this.size - CONCEPT_NAMES.length)), sign: h & 0x80000000 ? -1 : 1 };
    });
  }

  addConcept(concept: string): void {
    const slot = CONCEPT_SLOT.get(concept);
    if (slot !== undefined) this.add(`concept:${concept}`, WEIGHTS.concept, () => ({ index: slot, sign: 1 }));
  }
}

function charGrams(word: string): string[] {
  const padded = `<${word}>`;
  return CHAR_GRAM_SIZES.flatMap((n) =>
    Array.from({ length: Math.max(0, padded.length - n + 1) }, (_, i) => padded.slice(i, i + n)),
  );
}

function extractFeatures(text: string, size: number): FeatureBag {
  const bag = new FeatureBag(size);
  const tokens = tokenize(text);
  const content = tokens.filter((token) => !isStopword(token));
  const words = content.length > 0 ? content : tokens;
  if (words.length === 0) {
    bag.addHashed(EMPTY_TEXT_FEATURE, 1);
    return bag;
  }
  const stems = words.map(stem);
  words.forEach((word, i) => {
    const wordStem = stems[i] ?? word;
    bag.addHashed(`w:${wordStem}`, WEIGHTS.word);
    const concept = conceptOf(word);
    if (concept) bag.addConcept(concept);
    const next = stems[i + 1];
    if (next !== undefined) bag.addHashed(`b:${wordStem}_${next}`, WEIGHTS.bigram);
    const grams = charGrams(word.replace(/'/g, ""));
    for (const gram of grams) bag.addHashed(`g:${gram}`, WEIGHTS.charGramsPerWord / Math.sqrt(grams.length));
  });
  return bag;
}

/** Same text → same vector, on every machine and run. */
export function embedOffline(text: string): number[] {
  return hashedFeatureVector(text, EMBEDDING_DIMENSIONS);
}

export function hashedFeatureVector(text: string, size: number): number[] {
  const vector = new Array<number>(size).fill(0);
  for (const { index, sign, weight, count } of extractFeatures(text, size).features.values()) {
    vector[index] = (vector[index] ?? 0) + sign * weight * (1 + Math.log(count));
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  // Only an exact cancellation of colliding hashed features could give norm 0: use the empty-text vector then.
  return norm > 0 ? vector.map((x) => x / norm) : hashedFeatureVector("", size);
}

export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`cosineSimilarity: length mismatch (${a.length} vs ${b.length})`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

export const offlineEmbeddingModel: EmbeddingModelV4 = {
  specificationVersion: "v4",
  provider: "offline",
  modelId: OFFLINE_EMBEDDING_MODEL_ID,
  maxEmbeddingsPerCall: Number.POSITIVE_INFINITY,
  supportsParallelCalls: true,
  async doEmbed({ values, abortSignal }) {
    abortSignal?.throwIfAborted();
    return {
      embeddings: values.map(embedOffline),
      usage: { tokens: values.reduce((sum, value) => sum + countTokens(value), 0) },
      warnings: [],
    };
  },
};
