/**
 * Which models Lifeline talks to, chosen by environment variables (README.md § Configuration lists
 * them): OPENAI_BASE_URL set → "openai-compatible"; else OPENAI_API_KEY → "openai"; neither →
 * "offline" (lib/offline). LIFELINE_CHAT_MODELS' first id is the default chat model;
 * LIFELINE_EXTRACTION_MODEL defaults to it and need not be one of them.
 *
 * An OpenAI-compatible server has no universal model names: without LIFELINE_CHAT_MODELS (or
 * LIFELINE_EMBEDDING_MODEL) the OpenAI defaults are used — right for OpenAI-style gateways — and a
 * warning is recorded in `AiConfig.warnings`. Chat models go through the Chat Completions API
 * (`provider.chat(id)`), which every OpenAI-compatible server implements and which keeps no state
 * server-side. Every embedding is EMBEDDING_DIMENSIONS (1536) long, whatever the embedder (see
 * withFixedDimensions).
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
  /** The model dictation is transcribed with; null when there is no transcriber (offline). */
  transcriptionModel: string | null;
  /**
   * LIFELINE_MODEL_CONTEXT_TOKENS: the context window of the chat models core/model-capabilities.ts
   * does not know (the history budget is a share of it); unset offline.
   */
  unknownModelContextWindow?: number;
  /** OPENAI_BASE_URL, for "openai-compatible" only. */
  baseURL?: string;
  /** Configuration that was ignored or defaulted in a way an operator should know about. */
  warnings: string[];
}

export interface ProviderDescription {
  /** "<provider>/<default chat model id>", e.g. "offline/lifeline-offline-1". */
  model: string;
  /** "<provider>/<embedding model id>", e.g. "openai/text-embedding-3-small". */
  embedder: string;
}

/** Thrown by getLanguageModel for a model id that is not configured; an API route maps it to 400. */
export class UnknownChatModelError extends Error {
  override readonly name = "UnknownChatModelError";

  constructor(
    readonly modelId: string,
    readonly availableModelIds: readonly string[],
  ) {
    super(`Unknown chat model "${modelId}". Available: ${availableModelIds.join(", ")}.`);
  }
}

/** Thrown when an embedder returns vectors longer than EMBEDDING_DIMENSIONS (they cannot be stored). */
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

/** The AI configuration described by `env`. Pure: reads nothing else and creates no clients. */
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
 * Makes every embedding of `model` exactly EMBEDDING_DIMENSIONS long. Shorter vectors (e.g.
 * 768-d nomic-embed-text, 1024-d mxbai) are zero-padded: padding adds nothing to the dot
 * product or to either norm, so cosine similarity between two padded vectors equals that of
 * the originals. (Vectors from different embedders are never comparable, padded or not:
 * changing the embedder requires re-embedding stored memories.) Longer vectors cannot be
 * stored and throw EmbeddingDimensionError.
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

/** A custom fetch for the OpenAI client (tests, corporate proxies). */
export interface AiRegistryOptions {
  fetch?: typeof globalThis.fetch;
}

export interface AiRegistry {
  readonly config: AiConfig;
  isKnownChatModel(id: string): boolean;
  /** The chat model `modelId` (default: the configured default); UnknownChatModelError if not configured. */
  getLanguageModel(modelId?: string): LanguageModelV4;
  /** The model for memory extraction and conversation titles. */
  getExtractionModel(): LanguageModelV4;
  getTranscriptionModel(): TranscriptionModelV4 | null;
  /** The embedding model; every embedding it returns is EMBEDDING_DIMENSIONS long. */
  getEmbeddingModel(): EmbeddingModelV4;
  embedTexts(texts: string[]): Promise<number[][]>;
  embedText(text: string): Promise<number[]>;
  describeProviders(): ProviderDescription;
  /** The embedder as the memory pipeline takes it: `embedTexts` and its "<provider>/<model>" id. */
  readonly embedder: MemoryEmbedder;
  /**
   * How to reach the configured OpenAI or OpenAI-compatible server with another client (the Gmail
   * agent's LangChain model, lib/agent/model.ts): null for the offline provider.
   */
  openAIClientOptions(): OpenAIClientOptions | null;
  /**
   * The Gmail agent's LangChain model on the offline provider (lib/offline/agent), loaded on first
   * use so a route that never runs the agent never loads LangChain; null for any other provider.
   */
  offlineAgentModel(): Promise<BaseChatModel | null>;
}

export interface OpenAIClientOptions {
  apiKey: string;
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
}

/**
 * Text-embedding-3 models can shorten their output natively (`dimensions`); older OpenAI
 * models (ada-002, 1536-d) reject the parameter.
 */
function supportsDimensionsParameter(modelId: string): boolean {
  return modelId.startsWith("text-embedding-3");
}

/** Builds the models for `env`. Models are created lazily and reused. */
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

/**
 * Replaces the process-wide registry, like setDatabase does for the database: scripts and tests
 * that bring their own models (e.g. a scripted MockLanguageModelV4). `undefined` restores the env's.
 * Only the app edge reads the process registry (lib/runtime.ts, the route wrapper, pages); the
 * pipeline below it is handed a registry, an embedder or a model.
 */
export function setAiRegistry(next: AiRegistry | undefined): void {
  processRegistry = next;
}
