import { describe, expect, it } from "vitest";
import { promptConfig } from "./config";
import { contextWindow, effectiveTemperature, historyTokenBudget, modelCapabilities } from "./model-capabilities";

describe("modelCapabilities", () => {
  it.each(["gpt-5", "gpt-5-mini", "gpt-5.1", "o1", "o3-mini", "o4-mini", "openai/gpt-5-nano"])(
    "%s is a reasoning model: no temperature, developer role, max_completion_tokens",
    (id) => {
      expect(modelCapabilities(id)).toMatchObject({
        reasoning: true,
        temperature: false,
        systemRole: "developer",
        maxTokensParameter: "max_completion_tokens",
      });
      expect(effectiveTemperature(id, 0.3)).toBe(1);
    },
  );

  it.each(["gpt-4o-mini", "gpt-4.1", "gpt-5-chat-latest", "llama3.2", "qwen2.5", "lifeline-offline-1"])(
    "%s takes a temperature and a system message",
    (id) => {
      expect(modelCapabilities(id)).toMatchObject({ reasoning: false, temperature: true, systemRole: "system" });
      expect(effectiveTemperature(id, 0.3)).toBe(0.3);
    },
  );
});

describe("contextWindow", () => {
  it.each([
    ["gpt-4o-mini", 128_000],
    ["gpt-4o", 128_000],
    ["openai/gpt-4o", 128_000],
    ["gpt-4.1", 1_047_576],
    ["gpt-4.1-nano", 1_047_576],
    ["gpt-5", 400_000],
    ["gpt-5-mini", 400_000],
    ["gpt-5-chat-latest", 128_000],
    ["o1", 200_000],
    ["o3-mini", 200_000],
    ["o4-mini", 200_000],
    ["gpt-4-turbo", 128_000],
    ["gpt-4", 8_192],
    ["gpt-3.5-turbo", 16_385],
  ])("%s: %i tokens", (id, tokens) => {
    expect(contextWindow(id)).toBe(tokens);
    expect(modelCapabilities(id).contextWindow).toBe(tokens);
  });

  it.each(["llama3.2", "qwen2.5", "mistral-small", "lifeline-offline-1"])("%s is not known", (id) => {
    expect(contextWindow(id)).toBeNull();
  });
});

describe("historyTokenBudget", () => {
  it("is a quarter of a known model's context window, at most maxHistoryTokens", () => {
    expect(promptConfig.historyContextShare).toBe(0.25);
    expect(historyTokenBudget("gpt-4o-mini", { offline: false })).toBe(32_000);
    expect(historyTokenBudget("gpt-3.5-turbo", { offline: false })).toBe(4_096);
    expect(historyTokenBudget("gpt-4", { offline: false })).toBe(2_048);
    // 400,000 / 4 is more than the cap.
    expect(historyTokenBudget("gpt-5", { offline: false })).toBe(promptConfig.maxHistoryTokens);
  });

  it("assumes the documented default window for a model it does not know, unless the setting gives one", () => {
    expect(promptConfig.defaultContextWindow).toBe(8_192);
    expect(historyTokenBudget("llama3.2", { offline: false })).toBe(2_048);
    expect(historyTokenBudget("llama3.2", { offline: false, unknownModelContextWindow: 131_072 })).toBe(32_000);
    expect(historyTokenBudget("qwen2.5", { offline: false, unknownModelContextWindow: 32_768 })).toBe(8_192);
    // The setting is for the models Lifeline does not know.
    expect(historyTokenBudget("gpt-4", { offline: false, unknownModelContextWindow: 131_072 })).toBe(2_048);
  });

  it("keeps the offline model's small budget", () => {
    expect(historyTokenBudget("lifeline-offline-1", { offline: true })).toBe(promptConfig.historyTokenBudget);
    expect(promptConfig.historyTokenBudget).toBe(2_000);
  });
});
