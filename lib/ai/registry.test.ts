import { embedMany } from "ai";
import { MockEmbeddingModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { EMBEDDING_DIMENSIONS } from "@/core/config";
import { cosineSimilarity, embedOffline } from "@/lib/offline/embedder";
import { embedWordVec } from "@/lib/offline/wordvec-embedder";
import {
  createAiRegistry,
  EmbeddingDimensionError,
  getAiConfig,
  UnknownChatModelError,
  withFixedDimensions,
} from "./registry";

describe("getAiConfig", () => {
  it("uses the offline models without OPENAI_API_KEY or OPENAI_BASE_URL", () => {
    expect(getAiConfig({})).toEqual({
      provider: "offline",
      chatModels: [{ id: "lifeline-offline-1", label: "Lifeline offline" }],
      defaultChatModel: "lifeline-offline-1",
      embeddingModelId: "wordvec-glove-v3",
      extractionModel: "lifeline-offline-1",
      transcriptionModel: null,
      warnings: [],
    });
  });

  it("chooses an offline embedder with LIFELINE_EMBEDDING_MODEL, and warns about one that is not offline", () => {
    expect(getAiConfig({ LIFELINE_EMBEDDING_MODEL: "hash-ngram-v1" })).toMatchObject({
      embeddingModelId: "hash-ngram-v1",
      warnings: [],
    });
    const config = getAiConfig({ LIFELINE_EMBEDDING_MODEL: "text-embedding-3-small" });
    expect(config.embeddingModelId).toBe("wordvec-glove-v3");
    expect(config.warnings).toEqual([
      expect.stringMatching(/^LIFELINE_EMBEDDING_MODEL "text-embedding-3-small" is not an offline embedder/),
    ]);
  });

  it("treats blank variables as unset, and warns about model settings it ignores offline", () => {
    const config = getAiConfig({ OPENAI_API_KEY: "  ", OPENAI_BASE_URL: "", LIFELINE_CHAT_MODELS: "gpt-4o" });
    expect(config.provider).toBe("offline");
    expect(config.warnings).toEqual([expect.stringMatching(/^LIFELINE_CHAT_MODELS is ignored/)]);
  });

  it("uses OpenAI with an API key, defaulting to gpt-4o-mini and text-embedding-3-small", () => {
    expect(getAiConfig({ OPENAI_API_KEY: "sk-test" })).toEqual({
      provider: "openai",
      chatModels: [
        { id: "gpt-4o-mini", label: "gpt-4o-mini" },
        { id: "gpt-4o", label: "gpt-4o" },
      ],
      defaultChatModel: "gpt-4o-mini",
      embeddingModelId: "text-embedding-3-small",
      extractionModel: "gpt-4o-mini",
      transcriptionModel: "gpt-4o-mini-transcribe",
      warnings: [],
    });
  });

  it("reads the model lists, trimmed and without duplicates; the first chat model is the default", () => {
    const config = getAiConfig({
      OPENAI_API_KEY: "sk-test",
      LIFELINE_CHAT_MODELS: " gpt-4.1 , gpt-4o-mini,,gpt-4.1 ",
      LIFELINE_EMBEDDING_MODEL: "text-embedding-3-large",
      LIFELINE_EXTRACTION_MODEL: "gpt-4.1-nano",
    });
    expect(config.chatModels.map((model) => model.id)).toEqual(["gpt-4.1", "gpt-4o-mini"]);
    expect(config.defaultChatModel).toBe("gpt-4.1");
    expect(config.embeddingModelId).toBe("text-embedding-3-large");
    expect(config.extractionModel).toBe("gpt-4.1-nano");
  });

  it("has a transcriber only with a key or an OpenAI-compatible server; LIFELINE_TRANSCRIPTION_MODEL chooses it", () => {
    expect(createAiRegistry({}).getTranscriptionModel()).toBeNull();
    expect(getAiConfig({ LIFELINE_TRANSCRIPTION_MODEL: "whisper-1" }).warnings).toEqual([
      expect.stringMatching(/^LIFELINE_TRANSCRIPTION_MODEL is ignored/),
    ]);
    const compatible = createAiRegistry({
      OPENAI_BASE_URL: "http://whisper.local/v1",
      LIFELINE_TRANSCRIPTION_MODEL: "whisper-1",
    });
    expect(compatible.config.transcriptionModel).toBe("whisper-1");
    expect(compatible.getTranscriptionModel()?.modelId).toBe("whisper-1");
    expect(createAiRegistry({ OPENAI_API_KEY: "sk-test" }).getTranscriptionModel()?.modelId).toBe(
      "gpt-4o-mini-transcribe",
    );
  });

  it("uses an OpenAI-compatible server when OPENAI_BASE_URL is set, with or without a key", () => {
    const config = getAiConfig({
      OPENAI_BASE_URL: "http://localhost:11434/v1",
      LIFELINE_CHAT_MODELS: "llama3.2,qwen2.5",
      LIFELINE_EMBEDDING_MODEL: "nomic-embed-text",
    });
    expect(config).toMatchObject({
      provider: "openai-compatible",
      baseURL: "http://localhost:11434/v1",
      defaultChatModel: "llama3.2",
      embeddingModelId: "nomic-embed-text",
      warnings: [],
    });
    expect(getAiConfig({ OPENAI_BASE_URL: "http://vllm:8000/v1", OPENAI_API_KEY: "k" }).provider).toBe(
      "openai-compatible",
    );
  });

  it("reads the context window of the models it does not know from LIFELINE_MODEL_CONTEXT_TOKENS", () => {
    const server = { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", LIFELINE_CHAT_MODELS: "llama3.2" };
    expect(getAiConfig(server).unknownModelContextWindow).toBeUndefined();
    expect(getAiConfig({ ...server, LIFELINE_MODEL_CONTEXT_TOKENS: " 131072 " }).unknownModelContextWindow).toBe(
      131_072,
    );
    const offline = getAiConfig({ LIFELINE_MODEL_CONTEXT_TOKENS: "131072" });
    expect(offline.unknownModelContextWindow).toBeUndefined();
    expect(offline.warnings).toContain(
      "LIFELINE_MODEL_CONTEXT_TOKENS is ignored: no OPENAI_API_KEY or OPENAI_BASE_URL, so the offline models are used.",
    );
  });

  it("falls back to the OpenAI model names for a compatible server, with a warning for each", () => {
    const config = getAiConfig({ OPENAI_BASE_URL: "http://gateway/v1" });
    expect(config.defaultChatModel).toBe("gpt-4o-mini");
    expect(config.embeddingModelId).toBe("text-embedding-3-small");
    expect(config.warnings).toEqual([
      expect.stringMatching(/^LIFELINE_CHAT_MODELS is not set/),
      expect.stringMatching(/^LIFELINE_EMBEDDING_MODEL is not set/),
    ]);
  });
});

describe("createAiRegistry", () => {
  it("serves the offline models and describes them", () => {
    const registry = createAiRegistry({});
    const model = registry.getLanguageModel();
    expect([model.provider, model.modelId]).toEqual(["offline", "lifeline-offline-1"]);
    expect(registry.getExtractionModel()).toBe(model);
    expect(registry.getEmbeddingModel().modelId).toBe("wordvec-glove-v3");
    expect(registry.describeProviders()).toEqual({
      model: "offline/lifeline-offline-1",
      embedder: "offline/wordvec-glove-v3",
    });
    const older = createAiRegistry({ LIFELINE_EMBEDDING_MODEL: "hash-ngram-v1" });
    expect(older.describeProviders().embedder).toBe("offline/hash-ngram-v1");
  });

  it("serves configured OpenAI chat models through Chat Completions, reusing instances", () => {
    const registry = createAiRegistry({ OPENAI_API_KEY: "sk-test" });
    const model = registry.getLanguageModel("gpt-4o");
    expect([model.provider, model.modelId]).toEqual(["openai.chat", "gpt-4o"]);
    expect(registry.getLanguageModel("gpt-4o")).toBe(model);
    expect(registry.getLanguageModel().modelId).toBe("gpt-4o-mini");
    expect(registry.describeProviders()).toEqual({
      model: "openai/gpt-4o-mini",
      embedder: "openai/text-embedding-3-small",
    });
  });

  it("labels an OpenAI-compatible server's models with its own provider name", () => {
    const registry = createAiRegistry({
      OPENAI_BASE_URL: "http://localhost:11434/v1",
      LIFELINE_CHAT_MODELS: "llama3.2",
    });
    expect(registry.getLanguageModel().provider).toBe("openai-compatible.chat");
    expect(registry.describeProviders().model).toBe("openai-compatible/llama3.2");
  });

  it("throws UnknownChatModelError for a model that is not configured", () => {
    const registry = createAiRegistry({ OPENAI_API_KEY: "sk-test" });
    expect(registry.isKnownChatModel("gpt-4o")).toBe(true);
    expect(registry.isKnownChatModel("gpt-5")).toBe(false);
    let thrown: unknown;
    try {
      registry.getLanguageModel("gpt-5");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnknownChatModelError);
    expect(thrown).toMatchObject({ modelId: "gpt-5", availableModelIds: ["gpt-4o-mini", "gpt-4o"] });
  });

  it("embeds offline with the default offline embedder (word vectors), 1536-d", async () => {
    const registry = createAiRegistry({});
    const [first, second] = await registry.embedTexts(["I prefer green tea", "What tea do I like?"]);
    expect(first).toEqual(embedWordVec("I prefer green tea"));
    expect(second).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(await registry.embedText("I prefer green tea")).toEqual(first);
    expect(await registry.embedTexts([])).toEqual([]);
    const older = createAiRegistry({ LIFELINE_EMBEDDING_MODEL: "hash-ngram-v1" });
    expect(await older.embedTexts(["I prefer green tea"])).toEqual([embedOffline("I prefer green tea")]);
  });
});

/** A fake OpenAI-style /embeddings endpoint returning `dimensions`-long vectors; records request bodies. */
function fakeEmbeddingsServer(dimensions: number) {
  const requests: Record<string, unknown>[] = [];
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { input: string[] } & Record<string, unknown>;
    requests.push(body);
    const data = body.input.map((_, i) => ({
      embedding: Array.from({ length: dimensions }, (_, j) => ((i + j) % 7) - 3),
    }));
    return new Response(JSON.stringify({ data, usage: { prompt_tokens: 3 } }), {
      headers: { "content-type": "application/json" },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

describe("embedding dimensions", () => {
  it("asks OpenAI's text-embedding-3 models for 1536 dimensions", async () => {
    const server = fakeEmbeddingsServer(EMBEDDING_DIMENSIONS);
    const registry = createAiRegistry({ OPENAI_API_KEY: "sk-test" }, { fetch: server.fetch });
    expect(await registry.embedText("hello")).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(server.requests[0]).toMatchObject({ model: "text-embedding-3-small", dimensions: 1536 });
  });

  it("zero-pads a compatible server's shorter vectors to 1536, without sending `dimensions`", async () => {
    const server = fakeEmbeddingsServer(768);
    const registry = createAiRegistry(
      {
        OPENAI_BASE_URL: "http://localhost:11434/v1",
        LIFELINE_CHAT_MODELS: "llama3.2",
        LIFELINE_EMBEDDING_MODEL: "nomic-embed-text",
      },
      { fetch: server.fetch },
    );
    const [first, second] = await registry.embedTexts(["a", "b"]);
    expect(first).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(first?.slice(768).every((x) => x === 0)).toBe(true);
    expect(second?.slice(0, 3)).toEqual([-2, -1, 0]);
    expect(server.requests[0]).toEqual({ model: "nomic-embed-text", input: ["a", "b"], encoding_format: "float" });
  });

  it("keeps cosine similarity unchanged by zero-padding", async () => {
    const raw = [
      [0.1, -0.4, 0.7],
      [0.3, 0.2, -0.5],
    ];
    const model = withFixedDimensions(
      new MockEmbeddingModelV4({ maxEmbeddingsPerCall: 10, doEmbed: { embeddings: raw, warnings: [] } }),
    );
    const { embeddings } = await embedMany({ model, values: ["a", "b"] });
    const [a, b] = embeddings;
    const [rawA, rawB] = raw;
    if (!a || !b || !rawA || !rawB) throw new Error("missing embeddings");
    expect(a).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(a.slice(0, 3)).toEqual(rawA);
    expect(cosineSimilarity(a, b)).toBeCloseTo(cosineSimilarity(rawA, rawB), 12);
  });

  it("rejects vectors longer than 1536 with EmbeddingDimensionError", async () => {
    const server = fakeEmbeddingsServer(3072);
    const registry = createAiRegistry(
      { OPENAI_BASE_URL: "http://localhost:8000/v1", LIFELINE_CHAT_MODELS: "m", LIFELINE_EMBEDDING_MODEL: "big-embed" },
      { fetch: server.fetch },
    );
    await expect(registry.embedText("hello")).rejects.toBeInstanceOf(EmbeddingDimensionError);
    await expect(registry.embedText("hello")).rejects.toThrow(
      /"big-embed" returned 3072 dimensions; Lifeline stores 1536/,
    );
  });
});
