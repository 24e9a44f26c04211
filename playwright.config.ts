import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_HEALTH_TOKEN } from "./e2e/env";

/** A production build on the embedded default: fresh PGlite, offline model, in-process jobs. */
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// Outside the repo; the OS cleans its temp dir.
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `lifeline-e2e-${Date.now()}`);
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  // Dictation and the OpenAI faults have their own configs.
  testIgnore: ["dictation.spec.ts", "openai-faults.spec.ts"],
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  // No retries: a flaky test is a bug in its wait.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: `npx next start -H 127.0.0.1 -p ${port}`,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      LIFELINE_DATA_DIR: dataDir,
      DATABASE_URL: "",
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      INNGEST_EVENT_KEY: "",
      INNGEST_DEV: "",
      // A production server refuses the embedded defaults unless told it is one long-lived server.
      LIFELINE_ALLOW_EMBEDDED_DB: "1",
      LIFELINE_ALLOW_IN_PROCESS_JOBS: "1",
      AUTH_SECRET: process.env.AUTH_SECRET ?? "e2e-only-secret-not-for-production-0123456789",
      AUTH_TRUST_HOST: "true",
      // Production's lowest cost: a quarter of the hashing time, still the production code path.
      LIFELINE_PASSWORD_HASH_COST: "10",
      // Every spec registers from 127.0.0.1; the limiter still runs (integration tests check its 429s).
      LIFELINE_REGISTER_RATE_LIMIT: "200/1h",
      // e2e/layout.spec.ts sends 30 turns in well under a minute.
      LIFELINE_CHAT_RATE_LIMIT: "60/60s",
      LIFELINE_TRUSTED_PROXY: "1",
      LIFELINE_HEALTH_TOKEN: E2E_HEALTH_TOKEN,
    },
  },
});
