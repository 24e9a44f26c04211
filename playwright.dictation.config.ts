import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import baseConfig from "./playwright.config";
import { speechWavSync } from "./tests/fixtures/speech";

/**
 * A scripted OpenAI-compatible server (e2e/scripted-openai.ts) and a fake microphone playing real speech.
 * Two projects: the microphone allowed, and denied (`--deny-permission-prompts`).
 */
export const DICTATED = "Remind me to water the tomatoes on Friday.";

const port = Number(process.env.E2E_PORT ?? 3112);
const openaiPort = Number(process.env.E2E_OPENAI_PORT ?? port + 1);
const baseURL = `http://127.0.0.1:${port}`;
const dataDir = path.join(os.tmpdir(), `lifeline-e2e-dictation-${Date.now()}`);
const wav = speechWavSync(DICTATED);
const base = baseConfig.use?.launchOptions?.args ?? [];
const server = Array.isArray(baseConfig.webServer) ? baseConfig.webServer[0] : baseConfig.webServer;

export default defineConfig({
  ...baseConfig,
  testMatch: "dictation.spec.ts",
  testIgnore: [],
  use: { ...baseConfig.use, baseURL },
  projects: [
    {
      name: "dictation",
      grepInvert: /a denied microphone/,
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          ...baseConfig.use?.launchOptions,
          args: [
            ...base,
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            `--use-file-for-fake-audio-capture=${wav}`,
          ],
        },
      },
    },
    {
      name: "mic-blocked",
      grep: /a denied microphone/,
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          ...baseConfig.use?.launchOptions,
          args: [...base, "--use-fake-device-for-media-stream", "--deny-permission-prompts"],
        },
      },
    },
  ],
  webServer: [
    {
      command: `npx tsx e2e/scripted-openai.ts ${openaiPort} "${DICTATED}"`,
      url: `http://127.0.0.1:${openaiPort}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      ...server,
      command: `npx next start -H 127.0.0.1 -p ${port}`,
      url: `${baseURL}/api/health`,
      env: {
        ...server?.env,
        LIFELINE_DATA_DIR: dataDir,
        OPENAI_BASE_URL: `http://127.0.0.1:${openaiPort}/v1`,
        LIFELINE_CHAT_MODELS: "fake-chat",
        LIFELINE_EMBEDDING_MODEL: "fake-embedding",
        LIFELINE_TRANSCRIPTION_MODEL: "gpt-4o-mini-transcribe",
      },
    },
  ],
});
