import { describe, expect, it } from "vitest";
import { effectiveTemperature, modelCapabilities } from "./model-capabilities";

describe("modelCapabilities", () => {
  it.each(["gpt-5", "gpt-5-mini", "gpt-5.1", "o1", "o3-mini", "o4-mini", "openai/gpt-5-nano"])(
    "%s is a reasoning model: no temperature, developer role, max_completion_tokens",
    (id) => {
      expect(modelCapabilities(id)).toEqual({
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
