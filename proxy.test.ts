import { randomUUID } from "node:crypto";
import { getRedirectUrl, unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { config, proxy } from "./proxy";

const SECRET = "proxy-test-secret-0123456789abcdef";
process.env.AUTH_SECRET = SECRET;

describe("proxy.ts matcher", () => {
  it.each(["/", "/chat", "/chat/123", "/memories", "/memories/abc", "/messages/1", "/settings", "/settings/x"])(
    "runs on the app page %s",
    (url) => {
      expect(unstable_doesMiddlewareMatch({ config, url })).toBe(true);
    },
  );

  it.each(["/api/account", "/api/auth/session", "/api/health", "/api/memories?q=x"])(
    "runs on a request without a body to %s (to hand the route the query as sent)",
    (url) => {
      expect(unstable_doesMiddlewareMatch({ config, url })).toBe(true);
      expect(unstable_doesMiddlewareMatch({ config, url, headers: { "content-length": "0" } })).toBe(true);
    },
  );

  it("never on an API request with a body: Next would read all of it for the proxy", () => {
    for (const headers of [
      { "content-length": "12" },
      { "content-length": "0070000" },
      { "transfer-encoding": "chunked" },
    ]) {
      expect(unstable_doesMiddlewareMatch({ config, url: "/api/chat", headers })).toBe(false);
    }
  });

  it.each(["/api/memories/%FF", "/login/%C0%AF", "/x/%ED%A0%80/y"])(
    "runs on %s: a path with a percent-escape",
    (url) => {
      expect(unstable_doesMiddlewareMatch({ config, url, headers: { "content-length": "5" } })).toBe(true);
    },
  );

  it.each(["/login", "/register", "/_next/static/chunks/app.js", "/_next/image?url=x", "/favicon.ico", "/robots.txt"])(
    "leaves %s alone",
    (url) => {
      expect(unstable_doesMiddlewareMatch({ config, url })).toBe(false);
    },
  );
});

describe("proxy()", () => {
  it.each([
    "/api/memories/%FF",
    "/api/memories/%ED%A0%80",
    "/api/memories/%C0%AF",
    "/chat/%FF",
    "/messages/%FF/debug",
    "/api/auth/%FF",
    "/chat/%G0",
  ])("refuses %s: 400 in the JSON error shape with a request id", async (path) => {
    const res = await proxy(new NextRequest(`http://localhost:3000${path}`));
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/\S{8,}/);
    expect(await res.json()).toEqual({
      error: {
        code: "bad_request",
        message: "The URL path is not valid UTF-8 once percent-decoded",
        fields: { path: "The URL path is not valid UTF-8 once percent-decoded" },
        requestId,
      },
    });
  });

  it("passes a path of valid UTF-8 escapes (%C3%A9 is é)", async () => {
    const res = await proxy(new NextRequest("http://localhost:3000/api/memories/%C3%A9"));
    expect(res.headers.get("x-middleware-next")).toBe("1");
  });

  it("hands an API route its query string exactly as sent, and overwrites one the client set", async () => {
    const res = await proxy(
      new NextRequest("http://localhost:3000/api/memories?q=%ED%A0%80&__proto__=1", {
        headers: { "x-lifeline-raw-query": "q=forged" },
      }),
    );
    expect(res.headers.get("x-middleware-next")).toBe("1");
    expect(res.headers.get("x-middleware-request-x-lifeline-raw-query")).toBe("q=%ED%A0%80&__proto__=1");
  });

  it("leaves a signed-out visitor of /login alone (a page it only checks for its path)", async () => {
    const res = await proxy(new NextRequest("http://localhost:3000/login/%C3%A9"));
    expect(getRedirectUrl(res)).toBeNull();
  });

  it("sends a signed-out visitor to /login with where they were going", async () => {
    const res = await proxy(new NextRequest("http://localhost:3000/chat/42?x=1"));
    const target = new URL(getRedirectUrl(res) ?? "");
    expect(target.pathname).toBe("/login");
    expect(target.searchParams.get("callbackUrl")).toBe("/chat/42?x=1");
  });

  it("treats an invalid or expired cookie as signed out", async () => {
    const expired = await encode({
      token: { sub: randomUUID() },
      secret: SECRET,
      salt: "authjs.session-token",
      maxAge: -60,
    });
    for (const cookie of ["authjs.session-token=garbage", `authjs.session-token=${expired}`]) {
      const res = await proxy(new NextRequest("http://localhost:3000/", { headers: { cookie } }));
      expect(new URL(getRedirectUrl(res) ?? "").pathname).toBe("/login");
    }
  });

  it("lets a signed-in visitor through", async () => {
    const token = await encode({ token: { sub: randomUUID() }, secret: SECRET, salt: "authjs.session-token" });
    const res = await proxy(
      new NextRequest("http://localhost:3000/settings", { headers: { cookie: `authjs.session-token=${token}` } }),
    );
    expect(getRedirectUrl(res)).toBeNull();
    expect(res.headers.get("x-middleware-next")).toBe("1");
  });
});
