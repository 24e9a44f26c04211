/**
 * Provider choice by environment: README.md § Configuration. Chat goes through the Chat Completions
 * API (`provider.chat(id)`): every OpenAI-compatible server implements it and it keeps no state
 * server-side.
 */

// First: it clears a blank OPENAI_BASE_URL, on which @ai-sdk/openai's import would throw.
import "@/core/env";
import { createOpenAI } from "@ai-sdk/openai";
import type { EmbeddingModelV4, LanguageModelV4, TranscriptionModelV4 } from "@ai-sdk/provider";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { defaultEmbeddingSettingsMiddleware, embedMany, wrapEmbeddingModel } from "ai";
import { dictationConfig, EMBEDDING_DIMENSIONS, modelCallConfig } from "@/core/config";
import { env as processEnv, type RawEnv } from "@/core/env";
import type { MemoryEmbedder } from "@/lib/memory/store/memory-store";
import {
  DEFAULT_OFFLINE_EMBEDDING_MODEL_ID,
  OFFLINE_CHAT_MODEL_ID,
  offlineEmbeddingModels,
  offlineLanguageModel,
} from "@/lib/offline";

export type EnvVars = RawEnv;

export type AiProvider = "openai" | "openai-compatible" | "offline";

export interface ChatModelOption {
  id: string;
  label: string;
}

export interface AiConfig {
  provider: AiProvider;
  chatModels: ChatModelOption[];
  defaultChatModel: string;
  embeddingModelId: string;
  extractionModel: string;
  /** null offline. */
  transcriptionModel: string | null;
  /** For chat models core/model-capabilities.ts does not know; unset offline. */
  unknownModelContextWindow?: number;
  baseURL?: string;
  warnings: string[];
}

export interface ProviderDescription {
  /** "<provider>/<default chat model id>" */
  model: string;
  /** "<provider>/<embedding model id>" */
  embedder: string;
}

/** An API route maps it to 400. */
export class UnknownChatModelError extends Error {
  override readonly name = "UnknownChatModelError";

  constructor(
    readonly modelId: string,
    readonly availableModelIds: readonly string[],
  ) {
    super(`Unknown chat model "${modelId}". Available: ${availableModelIds.join(", ")}.`);
  }
}

export class EmbeddingDimensionError extends Error {
  override readonly name = "EmbeddingDimensionError";

  constructor(
    readonly modelId: string,
    readonly dimensions: number,
  ) {
    super(
      `Embedding model "${modelId}" returned ${dimensions} dimensions; Lifeline stores ${EMBEDDING_DIMENSIONS}. ` +
        `Use an embedding model with at most ${EMBEDDING_DIMENSIONS} dimensions (LIFELINE_EMBEDDING_MODEL).`,
    );
  }
}

const DEFAULT_CHAT_MODELS = ["gpt-4o-mini", "gpt-4o"];
const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";

function setting(env: EnvVars, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function modelList(value: string | undefined): string[] {
  return [
    ...new Set(
      (value ?? "")
        .split(",")
        .map((id) => id.trim())
        .filter((id) => id.length > 0),
    ),
  ];
}

/** Pure: reads nothing but `env` and creates no clients. */
export function getAiConfig(env: EnvVars = processEnv()): AiConfig {
  const baseURL = setting(env, "OPENAI_BASE_URL");
  const apiKey = setting(env, "OPENAI_API_KEY");
  const warnings: string[] = [];

  if (!baseURL && !apiKey) {
    for (const name of [
      "LIFELINE_CHAT_MODELS",
      "LIFELINE_EXTRACTION_MODEL",
      "LIFELINE_TRANSCRIPTION_MODEL",
      "LIFELINE_MODEL_CONTEXT_TOKENS",
    ]) {
      if (setting(env, name))
        warnings.push(`${name} is ignored: no OPENAI_API_KEY or OPENAI_BASE_URL, so the offline models are used.`);
    }
    let embeddingModelId = setting(env, "LIFELINE_EMBEDDING_MODEL") ?? DEFAULT_OFFLINE_EMBEDDING_MODEL_ID;
    if (!offlineEmbeddingModels.has(embeddingModelId)) {
      warnings.push(
        `LIFELINE_EMBEDDING_MODEL "${embeddingModelId}" is not an offline embedder (${[...offlineEmbeddingModels.keys()].join(", ")}) and there is no OPENAI_API_KEY or OPENAI_BASE_URL: ${DEFAULT_OFFLINE_EMBEDDING_MODEL_ID} is used.`,
      );
      embeddingModelId = DEFAULT_OFFLINE_EMBEDDING_MODEL_ID;
    }
    return {
      provider: "offline",
      chatModels: [{ id: OFFLINE_CHAT_MODEL_ID, label: "Lifeline offline" }],
      defaultChatModel: OFFLINE_CHAT_MODEL_ID,
      embeddingModelId,
      extractionModel: OFFLINE_CHAT_MODEL_ID,
      transcriptionModel: null,
      warnings,
    };
  }

  const provider: AiProvider = baseURL ? "openai-compatible" : "openai";
  const configured = modelList(setting(env, "LIFELINE_CHAT_MODELS"));
  const embeddingModelId = setting(env, "LIFELINE_EMBEDDING_MODEL") ?? DEFAULT_EMBEDDING_MODEL;
  if (provider === "openai-compatible") {
    if (configured.length === 0) {
      warnings.push(
        `LIFELINE_CHAT_MODELS is not set for OPENAI_BASE_URL; assuming the server serves ${DEFAULT_CHAT_MODELS.join(", ")}.`,
      );
    }
    if (!setting(env, "LIFELINE_EMBEDDING_MODEL")) {
      warnings.push(
        `LIFELINE_EMBEDDING_MODEL is not set for OPENAI_BASE_URL; assuming the server serves ${DEFAULT_EMBEDDING_MODEL}.`,
      );
    }
  }
  const chatModelIds = configured.length > 0 ? configured : DEFAULT_CHAT_MODELS;
  const contextTokens = setting(env, "LIFELINE_MODEL_CONTEXT_TOKENS");
  const defaultChatModel = chatModelIds[0] ?? OFFLINE_CHAT_MODEL_ID;
  return {
    provider,
    chatModels: chatModelIds.map((id) => ({ id, label: id })),
    defaultChatModel,
    embeddingModelId,
    extractionModel: setting(env, "LIFELINE_EXTRACTION_MODEL") ?? defaultChatModel,
    transcriptionModel: setting(env, "LIFELINE_TRANSCRIPTION_MODEL") ?? dictationConfig.defaultModel,
    ...(contextTokens ? { unknownModelContextWindow: Number(contextTokens) } : {}),
    ...(baseURL ? { baseURL } : {}),
    warnings,
  };
}

/**
 * Zero-padding adds nothing to the dot product or either norm, so cosine similarity between padded
 * vectors equals the originals'. Longer vectors cannot be stored and throw.
 */
export function withFixedDimensions(model: EmbeddingModelV4): EmbeddingModelV4 {
  return wrapEmbeddingModel({
    model,
    middleware: {
      specificationVersion: "v4",
      async wrapEmbed({ doEmbed }) {
        const result = await doEmbed();
        const embeddings = result.embeddings.map((embedding) => {
          if (embedding.length > EMBEDDING_DIMENSIONS)
            throw new EmbeddingDimensionError(model.modelId, embedding.length);
          return embedding.length === EMBEDDING_DIMENSIONS
            ? embedding
            : [...embedding, ...new Array<number>(EMBEDDING_DIMENSIONS - embedding.length).fill(0)];
        });
        return { ...result, embeddings };
      },
    },
  });
}

export interface AiRegistryOptions {
  fetch?: typeof globalThis.fetch;
}

export interface AiRegistry {
  readonly config: AiConfig;
  isKnownChatModel(id: string): boolean;
  getLanguageModel(modelId?: string): LanguageModelV4;
  getExtractionModel(): LanguageModelV4;
  getTranscriptionModel(): TranscriptionModelV4 | null;
  getEmbeddingModel(): EmbeddingModelV4;
  embedTexts(texts: string[]): Promise<number[][]>;
  embedText(text: string): Promise<number[]>;
  describeProviders(): ProviderDescription;
  readonly embedder: MemoryEmbedder;
  /** For another client (the Gmail agent's LangChain model); null offline. */
  openAIClientOptions(): OpenAIClientOptions | null;
  /** Loaded on first use so a route that never runs the agent never loads LangChain; null unless offline. */
  offlineAgentModel(): Promise<BaseChatModel | null>;
}

export interface OpenAIClientOptions {
  apiKey: string;
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
}

/** Older OpenAI models (ada-002) reject the `dimensions` parameter. */
function supportsDimensionsParameter(modelId: string): boolean {
  return modelId.startsWith("text-embedding-3");
}

export function createAiRegistry(env: EnvVars = processEnv(), options: AiRegistryOptions = {}): AiRegistry {
  const config = getAiConfig(env);
  const openai =
    config.provider === "offline"
      ? undefined
      : createOpenAI({
          apiKey: setting(env, "OPENAI_API_KEY") ?? (config.provider === "openai-compatible" ? "none" : undefined),
          ...(config.baseURL ? { baseURL: config.baseURL, name: "openai-compatible" } : {}),
          ...(options.fetch ? { fetch: options.fetch } : {}),
        });
  const languageModels = new Map<string, LanguageModelV4>();
  let embeddingModel: EmbeddingModelV4 | undefined;
  let transcriptionModel: TranscriptionModelV4 | undefined;

  const languageModel = (modelId: string): LanguageModelV4 => {
    let model = languageModels.get(modelId);
    if (!model) {
      model = openai ? openai.chat(modelId) : offlineLanguageModel;
      languageModels.set(modelId, model);
    }
    return model;
  };

  const isKnownChatModel = (id: string) => config.chatModels.some((model) => model.id === id);

  const getEmbeddingModel = (): EmbeddingModelV4 => {
    if (embeddingModel) return embeddingModel;
    if (!openai) {
      const offline = offlineEmbeddingModels.get(config.embeddingModelId);
      if (!offline) throw new Error(`no offline embedder "${config.embeddingModelId}"`);
      embeddingModel = offline;
    } else {
      const base = openai.embedding(config.embeddingModelId);
      // Only real OpenAI is asked for 1536 dimensions; other servers often reject the parameter, so their vectors are padded.
      const sized =
        config.provider === "openai" && supportsDimensionsParameter(config.embeddingModelId)
          ? wrapEmbeddingModel({
              model: base,
              middleware: defaultEmbeddingSettingsMiddleware({
                settings: { providerOptions: { openai: { dimensions: EMBEDDING_DIMENSIONS } } },
              }),
            })
          : base;
      embeddingModel = withFixedDimensions(sized);
    }
    return embeddingModel;
  };

  const description: ProviderDescription = {
    model: `${config.provider}/${config.defaultChatModel}`,
    embedder: `${config.provider}/${config.embeddingModelId}`,
  };

  const embedTexts = async (texts: string[]): Promise<number[][]> => {
    if (texts.length === 0) return [];
    const { embeddings } = await embedMany({
      model: getEmbeddingModel(),
      values: texts,
      abortSignal: AbortSignal.timeout(modelCallConfig.embeddingTimeoutMs),
    });
    return embeddings;
  };

  return {
    config,
    isKnownChatModel,
    getLanguageModel(modelId = config.defaultChatModel) {
      if (!isKnownChatModel(modelId)) {
        throw new UnknownChatModelError(
          modelId,
          config.chatModels.map((model) => model.id),
        );
      }
      return languageModel(modelId);
    },
    getExtractionModel: () => languageModel(config.extractionModel),
    getTranscriptionModel() {
      if (!openai || !config.transcriptionModel) return null;
      transcriptionModel ??= openai.transcription(config.transcriptionModel);
      return transcriptionModel;
    },
    getEmbeddingModel,
    embedTexts,
    async embedText(text) {
      const [embedding] = await embedTexts([text]);
      if (!embedding) throw new Error("embedText: the embedding model returned no embedding");
      return embedding;
    },
    describeProviders: () => description,
    embedder: { model: description.embedder, embed: embedTexts },
    offlineAgentModel: async () =>
      config.provider === "offline"
        ? new (await import("@/lib/offline/agent/chat-model")).OfflineAgentChatModel()
        : null,
    openAIClientOptions: () =>
      config.provider === "offline"
        ? null
        : {
            // An OpenAI-compatible server may need no key; the client library needs a value.
            apiKey: setting(env, "OPENAI_API_KEY") ?? "none",
            ...(config.baseURL ? { baseURL: config.baseURL } : {}),
            ...(options.fetch ? { fetch: options.fetch } : {}),
          },
  };
}

let processRegistry: AiRegistry | undefined;

function registry(): AiRegistry {
  processRegistry ??= createAiRegistry(processEnv());
  return processRegistry;
}

export function getAiRegistry(): AiRegistry {
  return registry();
}

/** For scripts and tests that bring their own models; `undefined` restores the env's. */
export function setAiRegistry(next: AiRegistry | undefined): void {
  processRegistry = next;
}
