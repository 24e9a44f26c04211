/**
 * `next dev` as a newcomer meets it: opened through 127.0.0.1 (or the "Network" URL it prints, one
 * of this machine's addresses) instead of localhost, its own scripts and HMR load, so /register
 * hydrates and its button registers. Runs the real dev server in Chromium (one to several minutes:
 * the dev server compiles /register on first load).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** A port nothing listens on (the dev server is started on it). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let PORT = Number(process.env.DEV_TEST_PORT ?? 0);
const root = path.resolve(__dirname, "../..");

/** This machine's first non-loopback IPv4 address: the host of the "Network" URL `next dev` prints. */
function networkHost(): string | null {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const entry of list ?? []) if (entry.family === "IPv4" && !entry.internal) return entry.address;
  }
  return null;
}

describe("the dev server opened through 127.0.0.1 and the Network URL", () => {
  let server: ChildProcess;
  let browser: Browser;
  let log = "";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "lifeline-dev-test-"));

  beforeAll(async () => {
    PORT ||= await freePort();
    server = spawn(path.join(root, "node_modules/.bin/next"), ["dev", "-p", String(PORT)], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "development",
        LIFELINE_DATA_DIR: dataDir,
        DATABASE_URL: "",
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "",
        LOG_LEVEL: "info",
        AUTH_SECRET: "dev-server-test-secret-0123456789abcdef",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
    server.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
    const started = Date.now();
    while (!/Ready in/.test(log)) {
      if (Date.now() - started > 90_000) throw new Error(`next dev did not start:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu"],
    });
  }, 120_000);

  afterAll(async () => {
    if (process.env.DEV_TEST_LOG) writeFileSync(process.env.DEV_TEST_LOG, log);
    await browser?.close();
    server?.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  });

  const hosts = ["127.0.0.1", networkHost()].filter((host): host is string => host !== null);

  it.each(hosts)(
    "through %s, /register loads its scripts and its button creates the account",
    async (host) => {
      const page = await browser.newPage();
      const refused: string[] = [];
      page.on("response", (response) => {
        if (response.url().includes("/_next/") && response.status() >= 400) {
          refused.push(`${response.status()} ${response.url()}`);
        }
      });
      page.on("requestfailed", (request) => {
        if (request.url().includes("/_next/")) refused.push(`failed ${request.url()}`);
      });
      // The first load compiles /register: minutes on a busy 2-core machine.
      await page.goto(`http://${host}:${PORT}/register`, { timeout: 240_000, waitUntil: "commit" });
      await page.getByLabel("Name").waitFor({ timeout: 240_000 });
      await page.getByLabel("Name").fill("Dev Newcomer");
      await page.getByLabel("Email").fill(`newcomer-${host.replace(/\W/g, "")}-${Date.now()}@example.com`);
      await page.getByLabel("Password").fill("correct-horse-battery-staple");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL(`http://${host}:${PORT}/`, { timeout: 240_000 });
      expect(refused).toEqual([]);
      expect(log).not.toMatch(/Blocked cross-origin request/);
      await page.close();
    },
    600_000,
  );
});
