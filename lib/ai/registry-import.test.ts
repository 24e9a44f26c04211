/**
 * `OPENAI_BASE_URL=` (blank: unset, like every variable) must not stop the server: @ai-sdk/openai
 * builds a default provider at import and throws on a blank base URL. The registry module is
 * imported fresh here, the way a server start imports it.
 */
import { afterEach, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

it("imports and chooses the offline models when OPENAI_BASE_URL and OPENAI_API_KEY are blank", async () => {
  vi.stubEnv("OPENAI_BASE_URL", "");
  vi.stubEnv("OPENAI_API_KEY", " ");
  vi.resetModules();
  const { createAiRegistry } = await import("./registry");
  expect(createAiRegistry().config.provider).toBe("offline");
  // A cold import of the registry's module graph (the AI SDK, both providers): 3.6 s alone, over the
  // unit default of 5 s on a loaded 2-core machine.
}, 30_000);
