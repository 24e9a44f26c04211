/**
 * The input edges Next itself decides, on the production build (`next start`): URL paths that are
 * not UTF-8, query strings Next would rewrite before a route sees them, forged session cookies at
 * Auth.js, the origin of Auth.js' redirects, and an upload without Content-Length (chunked), which
 * Next hands the route as it streams in. tests/http-server.ts (the security matrix's
 * server) mounts the route handlers without Next's router, so none of this shows there.
 *
 * One server on embedded PGlite with AUTH_URL=http://127.0.0.1:<port> (a loopback host, which
 * Next's NextRequest rewrites to "localhost"), and one with AUTH_TRUST_HOST=true and no AUTH_URL,
 * whose redirects follow the proxy's X-Forwarded-Host / X-Forwarded-Proto.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dictationConfig } from "@/core/config";
import { SPEECH_WAV } from "../fixtures/speech";
import { chunkedUpload, encoded } from "../fixtures/uploads";
import { HttpClient, type HttpResult, registerAndSignIn } from "../http-client";
import { freePort, type NextServer, startNextServer } from "./next-server";

const SECRET = "input-edges-test-secret-0123456789abcdef";

const embedded = (label: string) => ({
  NODE_ENV: "production",
  LIFELINE_ALLOW_EMBEDDED_DB: "1",
  LIFELINE_ALLOW_IN_PROCESS_JOBS: "1",
  LIFELINE_DATA_DIR: path.join(mkdtempSync(path.join(tmpdir(), `lifeline-${label}-`)), "pglite"),
  AUTH_SECRET: SECRET,
  LIFELINE_PASSWORD_HASH_COST: "10",
  LIFELINE_OFFLINE_DELAY_MS: "0",
  LOG_LEVEL: "info",
});

/** The security headers of next.config.ts (docs/security.md § Browser protections). */
function expectSecurityHeaders(res: HttpResult) {
  expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(res.headers.get("permissions-policy")).toContain("camera=()");
}

/** A 400 in the app's JSON error shape naming `field`, its request id in the header and the body. */
function expectBadRequest(res: HttpResult, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const { error } = res.json as {
    error: { code: string; message: string; fields: Record<string, string>; requestId: string };
  };
  expect(error.code).toBe("bad_request");
  expect(Object.keys(error.fields)).toEqual([field]);
  expect(error.requestId).toMatch(/\S{8,}/);
  expect(res.headers.get("x-request-id")).toBe(error.requestId);
  expectSecurityHeaders(res);
  return error.requestId;
}

function dictation(wav: Uint8Array<ArrayBuffer>): FormData {
  const form = new FormData();
  form.append("file", new Blob([wav], { type: "audio/wav" }), "dictation.wav");
  return form;
}

const UNDECODABLE_PATHS = [
  "/api/memories/%FF",
  "/api/memories/%ED%A0%80",
  "/api/memories/%C0%AF",
  "/chat/%FF",
  "/messages/%FF/debug",
  "/api/auth/%FF",
];

describe("next start: the input edges (AUTH_URL on a loopback address)", () => {
  let server: NextServer;
  let origin: string;
  let user: Awaited<ReturnType<typeof registerAndSignIn>>;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    server = await startNextServer({ ...embedded("edges"), AUTH_URL: origin }, port);
    user = await registerAndSignIn(server.url, "edges");
    await SPEECH_WAV.ready();
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  for (const caller of ["anonymous", "signed-in"] as const) {
    it(`a URL path that is not UTF-8 is a 400 in the JSON error shape with every header, logged (${caller})`, async () => {
      const client = caller === "anonymous" ? new HttpClient(server.url) : user.client;
      for (const pathname of UNDECODABLE_PATHS) {
        for (const method of ["GET", "DELETE"]) {
          const res = await client.request(method, pathname);
          const requestId = expectBadRequest(res, "path");
          await server.waitForOutput(new RegExp(`"requestId":"${requestId}".*"status":400`));
        }
      }
      // With a body too (the proxy runs on any path with a percent sign).
      const patch = await client.request("PATCH", "/api/memories/%FF", { json: { content: "x" } });
      expectBadRequest(patch, "path");
    });
  }

  it("a query string with invalid UTF-8 is the 400 naming query.q; __proto__ is refused like any unknown parameter", async () => {
    const cases: [string, string][] = [
      ["/api/memories?q=%ED%A0%80", "query.q"],
      ["/api/memories?q=%FF", "query.q"],
      ["/api/conversations?q=%FF", "query.q"],
      ["/api/conversations?q=a%ED%A0%80", "query.q"],
      ["/api/conversations?__proto__=1", "query.__proto__"],
      ["/api/memories?__proto__=x", "query.__proto__"],
      ["/api/memories?constructor=x", "query.constructor"],
    ];
    for (const [url, field] of cases) expectBadRequest(await user.client.request("GET", url), field);
    // Valid escapes still work, and anonymous callers are refused before the query is read.
    expect((await user.client.request("GET", "/api/memories?q=caf%C3%A9")).status).toBe(200);
    expect((await user.client.request("GET", "/api/conversations?q=%E5%AD%97")).status).toBe(200);
    expect((await new HttpClient(server.url).request("GET", "/api/memories?q=%FF")).status).toBe(401);
  });

  it("an upload streamed without Content-Length reaches the route through Next: over 25 MB a 413 before it is read whole, within it read", async () => {
    const { bytes, type } = await encoded(dictation(SPEECH_WAV.bytes()));
    const cookie = user.client.cookieHeader();
    const pieces = (body: Uint8Array) =>
      Array.from({ length: Math.ceil(body.byteLength / 4096) }, (_, i) => body.subarray(i * 4096, (i + 1) * 4096));
    // Read whole and parsed: then refused by the handler, as this server has no transcriber.
    const read = await chunkedUpload(server.url, cookie, type, pieces(bytes));
    expect(read.status, read.body).toBe(403);
    expect(JSON.parse(read.body).error.code).toBe("forbidden:no_transcriber");

    const chunk = new Uint8Array(256 * 1024);
    const total = 2 * dictationConfig.maxUploadBytes;
    const over = await chunkedUpload(
      server.url,
      cookie,
      type,
      (function* () {
        yield bytes.subarray(0, bytes.byteLength - 64);
        for (let sent = 0; sent < total; sent += chunk.byteLength) yield chunk;
      })(),
    );
    expect(over.status, over.body).toBe(413);
    expect(JSON.parse(over.body).error.code).toBe("payload_too_large");
    expect(over.sent).toBeLessThan(total);
  });

  it("Auth.js redirects go to AUTH_URL, not to Next's http://localhost:<port>", async () => {
    const anonymous = new HttpClient(server.url);
    const signinPage = await anonymous.request("GET", "/api/auth/signin");
    expect(signinPage.status).toBe(302);
    expect(new URL(signinPage.headers.get("location") ?? "", origin).searchParams.get("callbackUrl")).toBe(origin);

    const csrf = await anonymous.request("GET", "/api/auth/csrf");
    const { csrfToken } = csrf.json as { csrfToken: string };
    const wrong = await anonymous.request("POST", "/api/auth/callback/credentials", {
      form: { email: user.email, password: "not-the-password", csrfToken, callbackUrl: "/" },
    });
    expect(wrong.headers.get("location")).toMatch(new RegExp(`^${origin}/login\\?error=CredentialsSignin`));

    const client = new HttpClient(server.url);
    const signedIn = await client.signIn(user.email, user.password);
    expect(signedIn.ok).toBe(true);
    expect(signedIn.location).toBe(`${origin}/`);
    const csrf2 = await client.request("GET", "/api/auth/csrf");
    const signOut = await client.request("POST", "/api/auth/signout", {
      form: { csrfToken: (csrf2.json as { csrfToken: string }).csrfToken, callbackUrl: "/login" },
    });
    expect(signOut.headers.get("location")).toBe(`${origin}/login`);
    expect(server.output()).not.toContain("//localhost:");
  });

  it("a forged or tampered session cookie at Auth.js is a warn line without a stack, never an error", async () => {
    const valid = await encode({ token: { sub: user.id }, secret: SECRET, salt: "authjs.session-token" });
    const tampered = `${valid.slice(0, -6)}AAAAAA`;
    for (const cookie of ["authjs.session-token=not.a.real.token", `authjs.session-token=${tampered}`]) {
      const res = await new HttpClient(server.url).request("GET", "/api/auth/session", { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(res.json).toBeNull();
    }
    await server.waitForOutput(/"level":40,.*"type":"JWTSessionError".*"msg":"auth: request refused \(client error\)"/);
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.includes("JWTSessionError") || line.includes("jwtsessionerror"));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line).toMatch(/"level":40/);
      expect(line).not.toMatch(/stack|\\n\s+at /);
    }
    expect(server.output()).not.toMatch(/"level":50/);
  });
});

describe("next start: Auth.js redirects follow the trusted host (AUTH_TRUST_HOST=true, no AUTH_URL)", () => {
  let server: NextServer;

  beforeAll(async () => {
    server = await startNextServer({ ...embedded("trusted-host"), AUTH_TRUST_HOST: "true" });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("to the proxy's X-Forwarded-Proto and X-Forwarded-Host, or to the Host header", async () => {
    const behindProxy = await new HttpClient(server.url).request("GET", "/api/auth/signin", {
      headers: { "x-forwarded-host": "lifeline.example.com", "x-forwarded-proto": "https" },
    });
    expect(behindProxy.status).toBe(302);
    const target = new URL(behindProxy.headers.get("location") ?? "", "https://lifeline.example.com");
    expect(target.searchParams.get("callbackUrl")).toBe("https://lifeline.example.com");

    const direct = await new HttpClient(server.url).request("GET", "/api/auth/signin");
    const directTarget = new URL(direct.headers.get("location") ?? "", server.url);
    expect(directTarget.searchParams.get("callbackUrl")).toBe(server.url);
  });
});
