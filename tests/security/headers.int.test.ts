/**
 * Security headers on API responses, over real HTTP (tests/http-server.ts applies next.config.ts
 * `headers()` exactly as Next does). Pages and static files are not served here: the same headers
 * on them, and a CSP the pages pass without console errors, are checked by e2e/security-headers.spec.ts.
 */
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "@/next.config";
import { HttpClient, registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";

process.env.AUTH_SECRET = "security-headers-test-secret-0123456789";

/** The promises every response keeps (docs/security.md). */
function expectSecurityHeaders(headers: Headers) {
  const csp = headers.get("content-security-policy") ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'self'");
  expect(csp).toMatch(/(^|; )default-src 'self'(;|$)/);
  expect(csp).not.toMatch(/(^|\s)\*(\s|;|$)/);
  expect(headers.get("x-frame-options")).toBe("DENY");
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(headers.get("permissions-policy")).toMatch(/camera=\(\).*microphone=\(self\).*geolocation=\(\)/);
}

describe("the Content-Security-Policy", () => {
  it("allows no eval in production, only in development (React's dev tooling)", () => {
    expect(contentSecurityPolicy({ NODE_ENV: "production" })).not.toContain("unsafe-eval");
    expect(contentSecurityPolicy({ NODE_ENV: "development" })).toContain("'unsafe-eval'");
  });

  it("loads scripts, styles and connections only from the app's own origin", () => {
    const csp = contentSecurityPolicy({ NODE_ENV: "production" });
    expect(csp).toContain("script-src 'self' 'unsafe-inline';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("form-action 'self'");
    expect(securityHeaders({ NODE_ENV: "production" }).map((h) => h.key)).toEqual(
      expect.arrayContaining(["Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options"]),
    );
  });
});

describe("security headers on every API response", () => {
  const ctx = useTestServer("pglite");

  it("a public route, an error, a signed-in route, Auth.js, an unknown path and a 413 all carry them", async () => {
    const anonymous = new HttpClient(ctx.server.url);
    const user = await registerAndSignIn(ctx.server.url, "headers");
    const responses = [
      await anonymous.request("GET", "/api/health"),
      await anonymous.request("GET", "/api/account"),
      await user.client.request("GET", "/api/account"),
      await user.client.request("GET", "/api/conversations?q=%00"),
      await anonymous.request("GET", "/api/auth/providers"),
      await anonymous.request("GET", "/api/no-such-route"),
      await anonymous.request("POST", "/api/auth/register", { json: { padding: "x".repeat(270_000) } }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 200, 400, 200, 404, 413]);
    for (const res of responses) expectSecurityHeaders(res.headers);
  });
});
