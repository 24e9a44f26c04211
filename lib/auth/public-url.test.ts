import { describe, expect, it } from "vitest";
import { atPublicOrigin, publicOrigin, trustsHost } from "./public-url";

const production = { NODE_ENV: "production" };
const request = (headers: Record<string, string> = {}) =>
  new Request("http://localhost:3000/api/auth/signin?callbackUrl=%2Fchat", { headers });

describe("the URL Auth.js is handed", () => {
  it("AUTH_URL wins, a loopback address included, and keeps the request's path and query", () => {
    const env = { ...production, AUTH_URL: "http://127.0.0.1:4010" };
    const req = request({ host: "localhost:3000", "x-forwarded-host": "evil.example" });
    expect(publicOrigin(req, env)).toBe("http://127.0.0.1:4010");
    expect(atPublicOrigin(req, env).url).toBe("http://127.0.0.1:4010/api/auth/signin?callbackUrl=%2Fchat");
  });

  it("a trusted host: X-Forwarded-Proto and X-Forwarded-Host (their first entries), else Host", () => {
    const env = { ...production, AUTH_TRUST_HOST: "true" };
    const proxied = request({
      host: "10.0.0.5:3000",
      "x-forwarded-host": "app.example.com, x",
      "x-forwarded-proto": "https",
    });
    expect(publicOrigin(proxied, env)).toBe("https://app.example.com");
    expect(publicOrigin(request({ host: "127.0.0.1:3108" }), env)).toBe("http://127.0.0.1:3108");
    expect(publicOrigin(request({ host: "[::1]:3108" }), env)).toBe("http://[::1]:3108");
  });

  it("refuses a host header that is not a host, and an untrusted host (production without AUTH_TRUST_HOST, or set to false)", () => {
    const env = { ...production, AUTH_TRUST_HOST: "1" };
    for (const host of ["evil.example/path", "a b", "x@evil.example", ""]) {
      expect(publicOrigin(request({ "x-forwarded-host": host }), env), host).toBeNull();
    }
    expect(publicOrigin(request({ "x-forwarded-proto": "javascript", host: "a.example" }), env)).toBeNull();
    for (const untrusted of [
      production,
      { ...production, AUTH_TRUST_HOST: "false" },
      { ...production, AUTH_TRUST_HOST: "0" },
    ]) {
      expect(trustsHost(untrusted)).toBe(false);
      expect(publicOrigin(request({ host: "app.example.com" }), untrusted)).toBeNull();
      expect(atPublicOrigin(request({ host: "app.example.com" }), untrusted).url).toBe(
        "http://localhost:3000/api/auth/signin?callbackUrl=%2Fchat",
      );
    }
    expect(trustsHost({ ...production, VERCEL: "1" })).toBe(true);
    expect(trustsHost({ NODE_ENV: "development" })).toBe(true);
  });

  it("carries a POST body through", async () => {
    const env = { ...production, AUTH_URL: "https://app.example.com" };
    const post = new Request("http://localhost:3000/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=a%40example.com&password=x",
    });
    const handed = atPublicOrigin(post, env);
    expect(handed.method).toBe("POST");
    expect(await handed.text()).toBe("email=a%40example.com&password=x");
  });
});
