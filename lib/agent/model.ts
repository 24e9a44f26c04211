/**
 * The agent's chat model, by the same configuration as the text path (lib/ai/registry's AiConfig):
 * OpenAI or any OpenAI-compatible endpoint through LangChain's Chat Completions client (the API
 * every compatible server speaks), with the request's model and temperature; with no key, the
 * offline provider's agent model (a deterministic tool plan).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAICompletions } from "@langchain/openai";
import type { AiConfig } from "@/lib/ai/registry";
import { OfflineAgentChatModel } from "./offline/chat-model";

export interface AgentModelInput {
  config: AiConfig;
  /** OPENAI_API_KEY (an OpenAI-compatible server may need none). */
  apiKey: string | undefined;
  modelId: string;
  temperature: number;
  fetch?: typeof globalThis.fetch;
}

export function agentChatModel(input: AgentModelInput): BaseChatModel {
  if (input.config.provider === "offline") return new OfflineAgentChatModel();
  return new ChatOpenAICompletions({
    model: input.modelId,
    temperature: input.temperature,
    apiKey: input.apiKey ?? "none",
    // Whole replies: the agent streams its steps (tool calls, results, the answer) to the chat, not tokens.
    streaming: false,
    // As the text path (the AI SDK's default): a failing server is retried twice, not LangChain's six times.
    maxRetries: 2,
    configuration: {
      ...(input.config.baseURL ? { baseURL: input.config.baseURL } : {}),
      ...(input.fetch ? { fetch: input.fetch } : {}),
    },
  });
}
