/**
 * OpenAI's reasoning models (o-series, GPT-5+ except gpt-5-chat) take only the default temperature (any other is
 * a 400), `max_completion_tokens`, and a `developer` message (platform.openai.com/docs/guides/reasoning).
 */
import { promptConfig } from "./config";

export interface ModelCapabilities {
  reasoning: boolean;
  /** False: none is sent. */
  temperature: boolean;
  systemRole: "system" | "developer";
  maxTokensParameter: "max_tokens" | "max_completion_tokens";
  /** Null for a model not known here. */
  contextWindow: number | null;
}

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
 * From OpenAI's model pages, by id prefix, first match wins. An OpenAI-compatible server's models are absent:
 * their window depends on how the server runs them.
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

export function historyTokenBudget(
  modelId: string,
  { offline, unknownModelContextWindow }: { offline: boolean; unknownModelContextWindow?: number | undefined },
): number {
  if (offline) return promptConfig.historyTokenBudget;
  const window = contextWindow(modelId) ?? unknownModelContextWindow ?? promptConfig.defaultContextWindow;
  return Math.min(promptConfig.maxHistoryTokens, Math.floor(window * promptConfig.historyContextShare));
}

export function effectiveTemperature(modelId: string, requested: number): number {
  return modelCapabilities(modelId).temperature ? requested : DEFAULT_MODEL_TEMPERATURE;
}
