import { createHash } from "node:crypto";
import { embed, embedMany } from "ai";
import { describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { cosineSimilarity, embedOffline, offlineEmbeddingModel } from "./embedder";

const norm = (vector: number[]) => Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
const similarity = (a: string, b: string) => cosineSimilarity(embedOffline(a), embedOffline(b));

describe("embedOffline", () => {
  it("returns the same vector for the same text", () => {
    expect(embedOffline("I prefer green tea")).toEqual(embedOffline("I prefer green tea"));
  });

  it("is pinned: changing it silently would make stored offline embeddings incomparable", () => {
    // If this fails on purpose, give the new algorithm a new OFFLINE_EMBEDDING_MODEL_ID and re-embed stored memories.
    const digest = createHash("sha256")
      .update(
        embedOffline("I prefer green tea and my sister's name is Maya")
          .map((x) => x.toFixed(6))
          .join(","),
      )
      .digest("hex");
    expect(digest).toBe(PINNED_DIGEST);
  });

  it.each(["I prefer green tea", "", "   ", "?!", "🙂", "the of and", "a".repeat(10_000)])(
    "returns %j as a finite unit vector of EMBEDDING_DIMENSIONS numbers",
    (text) => {
      const vector = embedOffline(text);
      expect(vector).toHaveLength(EMBEDDING_DIMENSIONS);
      expect(vector.every(Number.isFinite)).toBe(true);
      expect(norm(vector)).toBeCloseTo(1, 10);
    },
  );

  it("maps every wordless text to one fixed unit vector, unrelated to real text", () => {
    expect(embedOffline("")).toEqual(embedOffline("?!"));
    expect(similarity("", "I prefer green tea")).toBe(0);
  });

  it("ignores case and punctuation, and nearly ignores inflection", () => {
    expect(similarity("I LOVE hiking!", "i love hiking")).toBeCloseTo(1, 10);
    expect(similarity("I LOVE hiking!", "i loved hiking")).toBeGreaterThan(0.9);
  });

  it.each([
    ["I prefer green tea", "What tea do I like?", "My sister's name is Maya"],
    ["My sister's name is Maya", "What is my sister called?", "I prefer green tea"],
    ["Lives in Berlin", "Which city do I live in?", "Is allergic to peanuts"],
    ["Has a dog named Rex", "What's my pet's name?", "When is my dentist appointment?"],
    ["Favorite movie is Inception", "What film do I love most?", "What is my job?"],
  ])("finds %j closer to %j than to %j", (memory, paraphrase, unrelated) => {
    expect(similarity(memory, paraphrase)).toBeGreaterThan(similarity(memory, unrelated) + 0.15);
  });
});

describe("offlineEmbeddingModel", () => {
  it("identifies itself as offline/hash-ngram-v1", () => {
    expect([offlineEmbeddingModel.provider, offlineEmbeddingModel.modelId]).toEqual(["offline", "hash-ngram-v1"]);
  });

  it("works with embedMany and embed from the AI SDK", async () => {
    const values = ["I prefer green tea", "What tea do I like?"];
    const many = await embedMany({ model: offlineEmbeddingModel, values });
    expect(many.embeddings).toEqual(values.map(embedOffline));
    expect(many.usage.tokens).toBeGreaterThan(0);

    const one = await embed({ model: offlineEmbeddingModel, value: "I prefer green tea" });
    expect(one.embedding).toEqual(embedOffline("I prefer green tea"));
  });

  it("rejects an already-aborted call", async () => {
    await expect(
      embedMany({ model: offlineEmbeddingModel, values: ["x"], abortSignal: AbortSignal.abort(), maxRetries: 0 }),
    ).rejects.toThrow(/abort/i);
  });
});

/** sha256 of the vector above, each component to 6 decimals. */
const PINNED_DIGEST = "a096e0bbd5a6b0e6acbf27e18e8161f03c4fbfeb71b1017ac304cb5e102a85fa";
