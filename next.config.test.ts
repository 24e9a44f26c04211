import { describe, expect, it } from "vitest";
import { offlineAssetTracing } from "./next.config";

describe("offlineAssetTracing", () => {
  const assets = "./lib/ai/offline/assets/**/*";

  it("carries the word vectors into deployments built without an API embedder", () => {
    expect(offlineAssetTracing({})).toEqual({ includes: [assets], excludes: [] });
    expect(offlineAssetTracing({ OPENAI_API_KEY: "  " })).toEqual({ includes: [assets], excludes: [] });
  });

  it("keeps them out of every function when an API embedder is configured", () => {
    expect(offlineAssetTracing({ OPENAI_API_KEY: "sk-test" })).toEqual({ includes: [], excludes: [assets] });
    expect(offlineAssetTracing({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })).toEqual({
      includes: [],
      excludes: [assets],
    });
  });
});
