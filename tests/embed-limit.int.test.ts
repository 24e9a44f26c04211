/**
 * The routes that embed text a signed-in user sends — POST /api/memories/preview and GET
 * /api/memories?match=semantic — are rate limited per user (LIFELINE_EMBED_RATE_LIMIT), on both
 * databases; a text search embeds nothing and is not counted.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { resetRateLimiters } from "@/lib/limits/rate-limit";
import { DB_KINDS } from "./db";
import { registerAndSignIn } from "./http-client";
import { useTestServer } from "./test-server";

process.env.AUTH_SECRET = "embed-limit-test-secret-0123456789abcdef";
process.env.LIFELINE_EMBED_RATE_LIMIT = "3/60s";

describe.each(DB_KINDS)("the embedding rate limit on %s", (kind) => {
  const ctx = useTestServer(kind);
  beforeEach(() => resetRateLimiters());

  it("counts previews and searches by meaning together; the fourth is a 429 with Retry-After", async () => {
    const user = await registerAndSignIn(ctx.server.url, `embed-${kind}`);
    const preview = () =>
      user.client.request("POST", "/api/memories/preview", { json: { message: "Where do I live?" } });
    const semantic = () => user.client.request("GET", "/api/memories?q=home&match=semantic");
    expect((await preview()).status).toBe(200);
    expect((await semantic()).status).toBe(200);
    // A text search embeds nothing: not counted.
    for (let i = 0; i < 5; i++) expect((await user.client.request("GET", "/api/memories?q=home")).status).toBe(200);
    expect((await preview()).status).toBe(200);
    for (const over of [await preview(), await semantic()]) {
      expect(over.status, over.text).toBe(429);
      expect((over.json as { error: { code: string } }).error.code).toBe("rate_limited");
      expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    // Another user has a limit of their own.
    const other = await registerAndSignIn(ctx.server.url, `other-${kind}`);
    expect((await other.client.request("GET", "/api/memories?q=home&match=semantic")).status).toBe(200);
  });
});
