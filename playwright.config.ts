import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_HEALTH_TOKEN } from "./e2e/env";

/**
 * E2E runs a production build (`next build` first) with `next start` on the embedded default:
 * a fresh PGlite data dir per run, the offline model and embedder, the in-process job runner —
 * which a production server runs only when LIFELINE_ALLOW_EMBEDDED_DB and
 * LIFELINE_ALLOW_IN_PROCESS_JOBS say so.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// A fresh database per run, outside the repo (the OS cleans its temp dir).
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `lifeline-e2e-${Date.now()}`);
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  // Dictation needs a transcriber and a fake microphone (playwright.dictation.config.ts); the
  // OpenAI faults run against the strict OpenAI fake (playwright.openai.config.ts).
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
      // The embedded default: no keys, no external services.
      DATABASE_URL: "",
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      INNGEST_EVENT_KEY: "",
      INNGEST_DEV: "",
      // A production server refuses the embedded defaults unless told this is one long-lived
      // server (core/env.ts, docs/deploy.md): e2e runs exactly that.
      LIFELINE_ALLOW_EMBEDDED_DB: "1",
      LIFELINE_ALLOW_IN_PROCESS_JOBS: "1",
      AUTH_SECRET: process.env.AUTH_SECRET ?? "e2e-only-secret-not-for-production-0123456789",
      AUTH_TRUST_HOST: "true",
      // The lowest bcrypt cost production accepts (core/env.ts; the default is 12): a quarter of the
      // hashing time for the run's registrations and sign-ins, still the production code path.
      LIFELINE_PASSWORD_HASH_COST: "10",
      // Every spec registers its own users from one address (127.0.0.1): the default 20 per hour
      // would be reached by the suite plus a retry. The limiter itself still runs (the integration
      // tests check its 429s at their own limits): `next start` writes the socket address into
      // X-Forwarded-For when the browser sends none, as one proxy would (lib/auth/client-address.ts).
      LIFELINE_REGISTER_RATE_LIMIT: "200/1h",
      // e2e/layout.spec.ts writes a 60-message chat (30 turns) in well under a minute; the default
      // 20 per minute would hold it up. The limiter still runs (integration tests check its 429s).
      LIFELINE_CHAT_RATE_LIMIT: "60/60s",
      LIFELINE_TRUSTED_PROXY: "1",
      // Lets the health spec read the detailed view, as a monitor would.
      LIFELINE_HEALTH_TOKEN: E2E_HEALTH_TOKEN,
    },
  },
});
