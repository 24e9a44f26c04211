/**
 * `next dev` as a newcomer meets it: opened through 127.0.0.1 (or the "Network" URL it prints, one
 * of this machine's addresses) instead of localhost, its own scripts and HMR load, so /register
 * hydrates and its button registers; a client that goes away mid-answer or mid-upload costs the
 * server no uncaught exception. Runs the real dev server in Chromium (one to several minutes: the
 * dev server compiles each page and route on its first request).
 *
 * Every wait is on the signal itself, never a sleep: the server's "Ready" line, the page's button
 * enabled (it is disabled until the page has hydrated), the URL after sign-in, the stored answer
 * leaving `streaming`, the request's own log line.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, chromium } from "@playwright/test";
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
/** A first compile on a busy 2-core machine: measured up to ~2 minutes for a page; twice that is the bound. */
const COMPILE_MS = 300_000;

/** This machine's first non-loopback IPv4 address: the host of the "Network" URL `next dev` prints. */
function networkHost(): string | null {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const entry of list ?? []) if (entry.family === "IPv4" && !entry.internal) return entry.address;
  }
  return null;
}

/** Resolves once `check()` holds, polling every `everyMs`; rejects with `what` after `timeoutMs`. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = COMPILE_MS, everyMs = 250) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe("the dev server opened through 127.0.0.1 and the Network URL", () => {
  let server: ChildProcess;
  let exited = false;
  let browser: Browser;
  let log = "";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "lifeline-dev-test-"));

  beforeAll(async () => {
    PORT ||= await freePort();
    // Its own process group: the dev server's workers are stopped with it.
    server = spawn(path.join(root, "node_modules/.bin/next"), ["dev", "-p", String(PORT)], {
      cwd: root,
      detached: true,
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
    server.on("exit", () => {
      exited = true;
    });
    server.stdout?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
    server.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
    await until(() => {
      if (exited) throw new Error(`next dev exited:\n${log}`);
      return /Ready in/.test(log);
    }, "next dev to start");
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu"],
    });
  }, COMPILE_MS + 30_000);

  afterAll(async () => {
    if (process.env.DEV_TEST_LOG) writeFileSync(process.env.DEV_TEST_LOG, log);
    await browser?.close();
    if (server?.pid && !exited) {
      const gone = new Promise((resolve) => server.once("exit", resolve));
      process.kill(-server.pid, "SIGTERM");
      await gone;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const hosts = ["127.0.0.1", networkHost()].filter((host): host is string => host !== null);
  /** A signed-in browser context (the first registration's), for the requests below. */
  let signedIn: BrowserContext | undefined;

  it.each(hosts)(
    "through %s, /register loads its scripts and its button creates the account",
    async (host) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(COMPILE_MS);
      const refused: string[] = [];
      page.on("response", (response) => {
        if (response.url().includes("/_next/") && response.status() >= 400) {
          refused.push(`${response.status()} ${response.url()}`);
        }
      });
      page.on("requestfailed", (request) => {
        if (request.url().includes("/_next/")) refused.push(`failed ${request.url()}`);
      });
      await page.goto(`http://${host}:${PORT}/register`, { timeout: COMPILE_MS, waitUntil: "commit" });
      await page.getByLabel("Name").fill("Dev Newcomer");
      await page.getByLabel("Email").fill(`newcomer-${host.replace(/\W/g, "")}-${Date.now()}@example.com`);
      await page.getByLabel("Password").fill("correct-horse-battery-staple");
      // The button is disabled until the page has hydrated: the click waits for it.
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL(`http://${host}:${PORT}/`, { timeout: COMPILE_MS });
      expect(refused).toEqual([]);
      expect(log).not.toMatch(/Blocked cross-origin request/);
      await page.close();
      signedIn ??= context;
      if (signedIn !== context) await context.close();
    },
    COMPILE_MS * 3,
  );

  /** The session cookie of the signed-in context, as a Cookie header. */
  async function cookieHeader(): Promise<string> {
    if (!signedIn) throw new Error("no registration succeeded");
    const cookies = await signedIn.cookies(`http://127.0.0.1:${PORT}`);
    return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
  }

  it(
    "a chat answer whose reader disconnects mid-stream is saved, with no uncaught exception",
    async () => {
      const cookie = await cookieHeader();
      const conversationId = await new Promise<string>((resolve, reject) => {
        const request = http.request(
          {
            host: "127.0.0.1",
            port: PORT,
            path: "/api/chat",
            method: "POST",
            headers: { "content-type": "application/json", cookie },
          },
          (response) => {
            if (response.statusCode !== 200) reject(new Error(`POST /api/chat answered ${response.statusCode}`));
            // The first streamed bytes: the answer is under way. Then the client is gone.
            response.once("data", () => {
              resolve(String(response.headers["x-conversation-id"]));
              request.destroy();
            });
          },
        );
        request.on("error", () => {});
        request.end(JSON.stringify({ message: { text: "Tell me a long story about the sea and a lighthouse." } }));
      });
      // The answer settles when the server sees the disconnect (the turn keeps reading the model).
      let status = "streaming";
      await until(async () => {
        const response = await fetch(`http://127.0.0.1:${PORT}/api/conversations/${conversationId}/messages`, {
          headers: { cookie },
        });
        const { messages } = (await response.json()) as { messages: { role: string; status: string }[] };
        status = messages.findLast((message) => message.role === "assistant")?.status ?? "none";
        return status !== "streaming";
      }, "the answer to be saved");
      expect(["aborted", "complete"]).toContain(status);
      expect(log).not.toMatch(/uncaughtException|Error: aborted/);
    },
    COMPILE_MS * 2,
  );

  it(
    "an upload cut off mid-body to /api/transcribe costs the server no uncaught exception",
    async () => {
      const cookie = await cookieHeader();
      const before = log.length;
      const boundary = "lifeline-dev-test";
      await new Promise<void>((resolve) => {
        const request = http.request({
          host: "127.0.0.1",
          port: PORT,
          path: "/api/transcribe",
          method: "POST",
          headers: {
            "content-type": `multipart/form-data; boundary=${boundary}`,
            "content-length": String(1024 * 1024),
            cookie,
          },
        });
        request.on("error", () => {});
        request.on("close", () => resolve());
        request.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.webm"\r\nContent-Type: audio/webm\r\n\r\n`,
        );
        request.write(Buffer.alloc(64 * 1024));
        // Part of the promised body is sent; then the client is gone, as a closed tab's upload.
        setImmediate(() => request.destroy());
      });
      // The route logs its request line once it has answered, whatever it answered.
      await until(
        () => /"path":"\/api\/transcribe"[^\n]*"msg":"request"|POST \/api\/transcribe/.test(log.slice(before)),
        "the upload's request to be handled",
      );
      expect(log).not.toMatch(/uncaughtException|Error: aborted/);
    },
    COMPILE_MS * 2,
  );
});
