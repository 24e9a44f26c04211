/**
 * What a chat model id accepts, in one place: the text path (lib/chat/turn.ts, the AI SDK), the
 * Gmail agent (lib/agent/model.ts, LangChain) and the chat's toolbar (no temperature control for
 * a model that ignores it) all read it.
 *
 * OpenAI's reasoning models — the o-series (o1, o3, o4-mini…) and GPT-5 and later except the
 * non-reasoning gpt-5-chat — take only the default temperature (1: any other value is a 400), take
 * `max_completion_tokens` instead of `max_tokens`, and read instructions as a `developer`
 * message (platform.openai.com/docs/guides/reasoning). Every other id — gpt-4o, gpt-4.1, and the
 * models an OpenAI-compatible server names (llama3.2, qwen2.5…) — takes all three as before.
 */
export interface ModelCapabilities {
  reasoning: boolean;
  /** Whether a temperature other than the default is accepted (false: none is sent). */
  temperature: boolean;
  systemRole: "system" | "developer";
  maxTokensParameter: "max_tokens" | "max_completion_tokens";
}

/** The temperature a model that ignores the setting answers with. */
export const DEFAULT_MODEL_TEMPERATURE = 1;

export function isReasoningModel(modelId: string): boolean {
  const id = modelId.replace(/^openai\//, "");
  const gpt = /^gpt-(\d+)(?:\.\d+)?(-chat)?/.exec(id);
  return /^o\d/.test(id) || (gpt !== null && Number(gpt[1]) >= 5 && gpt[2] === undefined);
}

export function modelCapabilities(modelId: string): ModelCapabilities {
  const reasoning = isReasoningModel(modelId);
  return {
    reasoning,
    temperature: !reasoning,
    systemRole: reasoning ? "developer" : "system",
    maxTokensParameter: reasoning ? "max_completion_tokens" : "max_tokens",
  };
}

/** The temperature a turn runs at: the requested one, or the model's default when it takes none. */
export function effectiveTemperature(modelId: string, requested: number): number {
  return modelCapabilities(modelId).temperature ? requested : DEFAULT_MODEL_TEMPERATURE;
}
