import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * The production server pointed at the strict OpenAI fake (tests/contracts/openai-fake-server.ts).
 *
 *   E2E_PORT=3102 npx playwright test -c playwright.openai.config.ts
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const fakePort = Number(process.env.E2E_OPENAI_PORT ?? port + 1);
const server = Array.isArray(base.webServer) ? base.webServer[0] : base.webServer;
if (!server) throw new Error("playwright.config.ts has no webServer");

export default defineConfig({
  ...base,
  testIgnore: [],
  testMatch: ["openai-faults.spec.ts"],
  webServer: [
    {
      command: `npx tsx tests/contracts/openai-fake-server.ts ${fakePort}`,
      port: fakePort,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      ...server,
      env: {
        ...server.env,
        OPENAI_BASE_URL: `http://127.0.0.1:${fakePort}/v1`,
        LIFELINE_CHAT_MODELS: "gpt-4o-mini,gpt-5-mini",
        LIFELINE_EMBEDDING_MODEL: "fake-embedding",
      },
    },
  ],
});
