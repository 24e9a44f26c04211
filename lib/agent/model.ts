/**
 * The agent's chat model, by the same configuration as the text path (lib/ai/registry): OpenAI or
 * any OpenAI-compatible endpoint through LangChain's Chat Completions client (the API every
 * compatible server speaks), with the request's model and temperature; with no key (the offline
 * provider), the model the registry hands over for it.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAICompletions } from "@langchain/openai";
import { modelCallConfig } from "@/core/config";
import { modelCapabilities } from "@/core/model-capabilities";
import type { OpenAIClientOptions } from "@/lib/ai/registry";

export interface AgentModelInput {
  /** The registry's openAIClientOptions(): null for the offline provider. */
  client: OpenAIClientOptions | null;
  /** The registry's offlineAgentModel(): the model when there is no client. */
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
    // `streaming` left unset, on purpose. `true` would stream every call and estimate its token counts
    // with tiktoken, which downloads its encodings at run time; `false` would forbid streaming. Unset,
    // a call streams when a handler asks for tokens: the chat's graph runs in LangGraph's "messages"
    // stream mode (lib/agent/stream.ts), so the answer reaches the chat token by token, with the usage
    // the server reports.
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

/** The provider the agent's model belongs to, named as the registry names providers. */
export function agentProvider(client: OpenAIClientOptions | null): "offline" | "openai" | "openai-compatible" {
  if (!client) return "offline";
  return client.baseURL ? "openai-compatible" : "openai";
}
