import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAICompletions } from "@langchain/openai";
import { modelCallConfig } from "@/core/config";
import { modelCapabilities } from "@/core/model-capabilities";
import type { OpenAIClientOptions } from "@/lib/ai/registry";

export interface AgentModelInput {
  client: OpenAIClientOptions | null;
  offlineModel: BaseChatModel | null;
  modelId: string;
  temperature: number;
}

export function agentChatModel({ client, offlineModel, modelId, temperature }: AgentModelInput): BaseChatModel {
  if (!client) {
    if (!offlineModel) throw new Error("agentChatModel: no OpenAI client and no offline model");
    return offlineModel;
  }
  // What the model id accepts (core/model-capabilities.ts): a reasoning model gets no temperature
  // (OpenAI refuses any but the default); LangChain itself sends its instructions as `developer`
  // and its output limit as `max_completion_tokens` for the same ids (the contract test checks both).
  const capabilities = modelCapabilities(modelId);
  return new ChatOpenAICompletions({
    model: modelId,
    ...(capabilities.temperature ? { temperature } : {}),
    apiKey: client.apiKey,
    // `streaming` left unset on purpose: `true` estimates token counts with tiktoken, which downloads
    // its encodings at run time; `false` forbids streaming. Unset, a call streams when a handler asks.
    // As the text path (the AI SDK's default): a failing server is retried twice, not LangChain's six times.
    maxRetries: 2,
    // Each call (each retry) gives up after this long: no agent turn waits on a silent server.
    timeout: modelCallConfig.agentCallTimeoutMs,
    configuration: {
      ...(client.baseURL ? { baseURL: client.baseURL } : {}),
      ...(client.fetch ? { fetch: client.fetch } : {}),
    },
  });
}

export function agentProvider(client: OpenAIClientOptions | null): "offline" | "openai" | "openai-compatible" {
  if (!client) return "offline";
  return client.baseURL ? "openai-compatible" : "openai";
}
