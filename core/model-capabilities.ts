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
import { promptConfig } from "./config";

export interface ModelCapabilities {
  reasoning: boolean;
  /** Whether a temperature other than the default is accepted (false: none is sent). */
  temperature: boolean;
  systemRole: "system" | "developer";
  maxTokensParameter: "max_tokens" | "max_completion_tokens";
  /** Input and output tokens the model takes in all (CONTEXT_WINDOWS); null for a model not known here. */
  contextWindow: number | null;
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
    contextWindow: contextWindow(modelId),
  };
}

/**
 * The context windows of OpenAI's chat models, from their model pages (platform.openai.com/docs/models),
 * by id prefix; the first that matches wins. A model an OpenAI-compatible server names (llama3.2,
 * qwen2.5…) is not here: its window depends on how the server runs it.
 */
const CONTEXT_WINDOWS: readonly (readonly [RegExp, number])[] = [
  [/^gpt-5(?:\.\d+)?-chat/, 128_000],
  [/^gpt-5/, 400_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^(?:chatgpt-)?gpt-4o|^chatgpt-4o/, 128_000],
  [/^gpt-4-(?:turbo|1106|0125)/, 128_000],
  [/^gpt-4-32k/, 32_768],
  [/^gpt-4(?:-0[36]\d\d)?$/, 8_192],
  [/^gpt-3\.5-turbo/, 16_385],
  [/^o1-mini/, 128_000],
  [/^o\d/, 200_000],
];

export function contextWindow(modelId: string): number | null {
  const id = modelId.replace(/^openai\//, "");
  return CONTEXT_WINDOWS.find(([pattern]) => pattern.test(id))?.[1] ?? null;
}

/**
 * The tokens of conversation history a turn with `modelId` sends (promptConfig): the offline
 * model's small budget; else `historyContextShare` of the model's context window — for a model
 * not known here, `unknownModelContextWindow` (LIFELINE_MODEL_CONTEXT_TOKENS) or
 * `defaultContextWindow` — and at most `maxHistoryTokens`.
 */
export function historyTokenBudget(
  modelId: string,
  { offline, unknownModelContextWindow }: { offline: boolean; unknownModelContextWindow?: number | undefined },
): number {
  if (offline) return promptConfig.historyTokenBudget;
  const window = contextWindow(modelId) ?? unknownModelContextWindow ?? promptConfig.defaultContextWindow;
  return Math.min(promptConfig.maxHistoryTokens, Math.floor(window * promptConfig.historyContextShare));
}

/** The temperature a turn runs at: the requested one, or the model's default when it takes none. */
export function effectiveTemperature(modelId: string, requested: number): number {
  return modelCapabilities(modelId).temperature ? requested : DEFAULT_MODEL_TEMPERATURE;
}
