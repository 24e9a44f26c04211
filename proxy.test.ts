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

  it.each([
    "/api/account",
    "/api/auth/session",
    "/api/health",
    "/login",
    "/register",
    "/_next/static/chunks/app.js",
    "/_next/image?url=x",
    "/favicon.ico",
    "/robots.txt",
  ])("leaves %s alone", (url) => {
    expect(unstable_doesMiddlewareMatch({ config, url })).toBe(false);
  });
});

describe("proxy()", () => {
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
