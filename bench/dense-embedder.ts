/**
 * A dense corpus for the bench: the offline embedder's GloVe part projected to EMBEDDING_DIMENSIONS,
 * so every component is non-zero as real embedding models give; an HNSW index's recall depends on
 * that. Not a product embedder.
 */
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import type { MemoryEmbedder } from "@/lib/memory/store/memory-store";
import { hashedFeatureVector } from "@/lib/offline/embedder";
import { wordVectors } from "@/lib/offline/word-vectors";
import { contentMean, meaningVector, WORDVEC_SETTINGS } from "@/lib/offline/wordvec-embedder";
import { seededRandom } from "@/tests/fixtures/memories";

export const DENSE_EMBEDDER_MODEL = "bench/dense-glove-1536";

function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export function denseEmbedder(): MemoryEmbedder {
  const vectors = wordVectors();
  const mean = contentMean(vectors, WORDVEC_SETTINGS.sifA);
  const random = seededRandom(1536);
  // Row d of the projection: EMBEDDING_DIMENSIONS × vectors.dims, fixed by its seed.
  const projection = Array.from({ length: EMBEDDING_DIMENSIONS }, () =>
    Float64Array.from({ length: vectors.dims }, () => gaussian(random)),
  );
  const embedOne = (text: string): number[] => {
    let meaning = meaningVector(text, vectors, WORDVEC_SETTINGS.sifA, mean);
    if (!meaning.some((x) => x !== 0)) meaning = hashedFeatureVector(text, vectors.dims);
    const out = projection.map((row) => row.reduce((sum, w, i) => sum + w * (meaning[i] as number), 0));
    const norm = Math.hypot(...out) || 1;
    return out.map((x) => x / norm);
  };
  return { model: DENSE_EMBEDDER_MODEL, embed: async (texts) => texts.map(embedOne) };
}
