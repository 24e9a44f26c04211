/**
 * Security headers on pages, API routes and static files of the production build, and a
 * Content-Security-Policy the app passes: no violation (and, through the fixtures, no console error)
 * on the login, chat, memories and settings pages. The API side is also checked over HTTP by
 * tests/security/headers.int.test.ts. docs/security.md lists the promises.
 */
import type { APIResponse, Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { expect, sendAndWait, test } from "./fixtures";

function expectSecurityHeaders(res: APIResponse, what: string) {
  const headers = res.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).not.toContain("unsafe-eval");
  expect(headers["x-frame-options"], what).toBe("DENY");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"], what).toContain("camera=()");
}

/** Records every CSP violation the page reports (the fixtures also fail on the console error it logs). */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const list: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = list;
    document.addEventListener("securitypolicyviolation", (event) => {
      list.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
}

const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);

test("pages, API routes and static files carry the security headers", async ({ request }) => {
  const login = await request.get("/login");
  expect(login.status()).toBe(200);
  expectSecurityHeaders(login, "/login");
  expectSecurityHeaders(await request.get("/api/health"), "/api/health");
  expectSecurityHeaders(await request.get("/api/account"), "/api/account (401)");
  const script = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(await login.text())?.[1];
  expect(script, "a static script on /login").toBeTruthy();
  expectSecurityHeaders(await request.get(script as string), script as string);
  // Signed out, `/` redirects to /login: the redirect carries them too.
  expectSecurityHeaders(await request.get("/", { maxRedirects: 0 }), "/ (redirect)");
});

test("the login, chat, memories and settings pages run under the CSP without a violation", async ({ page }) => {
  await recordViolations(page);
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  expect(await violations(page), "/login").toEqual([]);

  await registerViaUi(page, "csp");
  // A chat turn: streaming, the AI SDK client's parsing, the theme script.
  await sendAndWait(page, "I like green tea");
  expect(await violations(page), "chat").toEqual([]);

  for (const path of ["/memories", "/settings"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(await violations(page), path).toEqual([]);
  }
});
