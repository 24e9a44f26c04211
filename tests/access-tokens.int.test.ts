/**
 * Personal access tokens over real HTTP (tests/http-server.ts) on PGlite and Postgres: created with
 * a session, shown once and stored as a hash, used as `Authorization: Bearer` on the routes that
 * accept one, marked used, revoked, ended with the account's sessions, and rate limited per token
 * and per user in the database's rate_limits table. The security matrix (tests/security) covers
 * every route's refusals; this covers the life of a token.
 */
import { createHash } from "node:crypto";
import { eq, like, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessTokenConfig } from "@/core/config";
import { accessTokens, rateLimits } from "@/db/schema";
import { resetRateLimiters } from "@/lib/limits/rate-limit";
import { DB_KINDS } from "./db";
import { HttpClient, registerAndSignIn } from "./http-client";
import { startTestServer, type TestServer } from "./http-server";
import { useTestDatabase } from "./test-database";

process.env.AUTH_SECRET = "access-token-test-secret-0123456789abcdef";

interface Created {
  token: {
    id: string;
    name: string;
    scope: string;
    state: string;
    lastUsedAt: string | null;
    expiresAt: string | null;
  };
  secret: string;
}

describe.each(DB_KINDS)("access tokens on %s", (kind) => {
  const database = useTestDatabase(kind);
  let server: TestServer;
  let ada: Awaited<ReturnType<typeof registerAndSignIn>>;

  beforeAll(async () => {
    server = await startTestServer({ database });
    ada = await registerAndSignIn(server.url, "ada");
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = async (body: Record<string, unknown>, client = ada.client) => {
    const res = await client.request("POST", "/api/access-tokens", { json: body });
    expect(res.status, res.text).toBe(201);
    return res.json as Created;
  };
  const withToken = (secret: string, method: string, path: string, json?: unknown) =>
    new HttpClient(server.url).request(method, path, {
      headers: { authorization: `Bearer ${secret}` },
      ...(json === undefined ? {} : { json }),
    });
  const list = async (client = ada.client) =>
    ((await client.request("GET", "/api/access-tokens")).json as { tokens: Created["token"][] }).tokens;

  it("is shown once and stored only as its SHA-256", async () => {
    const { token, secret } = await create({ name: "Claude Desktop", scope: "read", expiresInDays: 30 });
    expect(secret).toMatch(/^llt_[A-Za-z0-9_-]{43}$/);
    const [row] = await database.db.select().from(accessTokens).where(eq(accessTokens.id, token.id));
    expect(row?.tokenHash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(await list())).not.toContain(secret);
    const days = (Date.parse(token.expiresAt ?? "") - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("reads with any scope, writes with read+write, and records when it was last used", async () => {
    const read = await create({ name: "reader", scope: "read" });
    const write = await create({ name: "writer", scope: "read+write" });
    expect((await list()).find((t) => t.id === read.token.id)?.lastUsedAt).toBeNull();

    const listed = await withToken(read.secret, "GET", "/api/memories");
    expect(listed.status, listed.text).toBe(200);
    const lastUsed = (await list()).find((t) => t.id === read.token.id)?.lastUsedAt;
    expect(Date.parse(lastUsed ?? "")).toBeGreaterThan(Date.now() - 60_000);

    const refused = await withToken(read.secret, "POST", "/api/memories", { content: "Likes jazz" });
    expect(refused.status, refused.text).toBe(403);
    const created = await withToken(write.secret, "POST", "/api/memories", { content: "Likes jazz" });
    expect(created.status, created.text).toBe(201);
    const { memory } = created.json as { memory: { id: string; userId: string; content: string } };
    expect(memory).toMatchObject({ userId: ada.id, content: "Likes jazz" });
    // The session sees what the token wrote.
    const mine = await ada.client.request("GET", `/api/memories/${memory.id}`);
    expect(mine.status).toBe(200);
  });

  it("stops working when revoked, and leaves the list", async () => {
    const { token, secret } = await create({ name: "to revoke", scope: "read" });
    expect((await withToken(secret, "GET", "/api/conversations")).status).toBe(200);
    expect((await ada.client.request("DELETE", `/api/access-tokens/${token.id}`)).status).toBe(204);
    const after = await withToken(secret, "GET", "/api/conversations");
    expect(after.status).toBe(401);
    expect((after.json as { error: { code: string } }).error.code).toBe("unauthorized");
    expect((await list()).map((t) => t.id)).not.toContain(token.id);
    // Revoking twice is the same 404 as a token that is not yours.
    expect((await ada.client.request("DELETE", `/api/access-tokens/${token.id}`)).status).toBe(404);
  });

  it("ends with the account's sessions: a password change and “end all sessions” both end every token", async () => {
    const carol = await registerAndSignIn(server.url, "carol");
    const before = await create({ name: "before password change", scope: "read" }, carol.client);
    const newPassword = "a-brand-new-password-42";
    const changed = await carol.client.request("POST", "/api/account/password", {
      json: { currentPassword: carol.password, newPassword },
    });
    expect(changed.status, changed.text).toBe(204);
    expect((await withToken(before.secret, "GET", "/api/memories")).status).toBe(401);
    expect((await list(carol.client)).find((t) => t.id === before.token.id)?.state).toBe("ended");

    const next = await create({ name: "before end all sessions", scope: "read" }, carol.client);
    expect((await withToken(next.secret, "GET", "/api/memories")).status).toBe(200);
    expect((await carol.client.request("DELETE", "/api/account/sessions")).status).toBe(204);
    expect((await withToken(next.secret, "GET", "/api/memories")).status).toBe(401);
    expect((await list(carol.client)).find((t) => t.id === next.token.id)?.state).toBe("ended");

    // A token made afterwards works.
    const fresh = await create({ name: "after", scope: "read" }, carol.client);
    expect((await withToken(fresh.secret, "GET", "/api/memories")).status).toBe(200);
  });

  it("is rate limited per token and per user, counted in rate_limits", async () => {
    process.env.LIFELINE_ACCESS_TOKEN_RATE_LIMIT = "2/1h";
    process.env.LIFELINE_ACCESS_TOKEN_USER_RATE_LIMIT = "3/1h";
    resetRateLimiters();
    try {
      const dave = await registerAndSignIn(server.url, "dave");
      const a = await create({ name: "a", scope: "read" }, dave.client);
      const b = await create({ name: "b", scope: "read" }, dave.client);
      const statuses = async (secret: string, n: number) => {
        const out: number[] = [];
        for (let i = 0; i < n; i++) out.push((await withToken(secret, "GET", "/api/memories")).status);
        return out;
      };
      // Token a: its own limit of 2. Token b: one more, then the user's limit of 3 (a's 3rd did not count for the user).
      expect(await statuses(a.secret, 3)).toEqual([200, 200, 429]);
      expect(await statuses(b.secret, 2)).toEqual([200, 429]);
      const refused = await withToken(b.secret, "GET", "/api/memories");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      // The session is not an access token: its requests are not limited by these.
      expect((await dave.client.request("GET", "/api/memories")).status).toBe(200);
      const keys = await database.db
        .select({ key: rateLimits.key, count: rateLimits.count })
        .from(rateLimits)
        .where(
          or(like(rateLimits.key, `accessToken:${a.token.id}`), like(rateLimits.key, `accessTokenUser:${dave.id}`)),
        );
      expect(Object.fromEntries(keys.map((k) => [k.key, k.count]))).toEqual({
        [`accessToken:${a.token.id}`]: 3,
        [`accessTokenUser:${dave.id}`]: 4,
      });
    } finally {
      delete process.env.LIFELINE_ACCESS_TOKEN_RATE_LIMIT;
      delete process.env.LIFELINE_ACCESS_TOKEN_USER_RATE_LIMIT;
      resetRateLimiters();
    }
  });

  it("a session behind a basic-auth proxy (its Authorization: Basic … on every request) works on every kind of route", async () => {
    const basic = { authorization: `Basic ${Buffer.from("proxy-user:proxy-pass").toString("base64")}` };
    // A route without a bearer option, one that takes a token too, and account management.
    for (const path of ["/api/conversations", "/api/memories", "/api/access-tokens"]) {
      const res = await ada.client.request("GET", path, { headers: basic });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
    const written = await ada.client.request("POST", "/api/memories", {
      headers: basic,
      json: { content: "Likes tea" },
    });
    expect(written.status, written.text).toBe(201);
    // Without the session, Basic credentials are not a sign-in.
    const anonymous = await new HttpClient(server.url).request("GET", "/api/memories", { headers: basic });
    expect(anonymous.status).toBe(401);
    // A credential in our token's shape is still judged as one, whatever cookie comes with it.
    const forged = await ada.client.request("GET", "/api/access-tokens", {
      headers: { authorization: `Bearer llt_${"x".repeat(43)}` },
    });
    expect(forged.status).toBe(403);
    expect((forged.json as { error: { code: string } }).error.code).toBe("forbidden:access_token");
  });

  it("allows at most maxPerUser unrevoked tokens (409), and revoking makes room", async () => {
    const erin = await registerAndSignIn(server.url, "erin");
    const made: Created[] = [];
    for (let i = 0; i < accessTokenConfig.maxPerUser; i++)
      made.push(await create({ name: `t${i}`, scope: "read" }, erin.client));
    const over = await erin.client.request("POST", "/api/access-tokens", { json: { name: "one more", scope: "read" } });
    expect(over.status, over.text).toBe(409);
    expect((over.json as { error: { code: string } }).error.code).toBe("conflict:access_token_limit");
    await erin.client.request("DELETE", `/api/access-tokens/${made[0]?.token.id}`);
    await create({ name: "one more", scope: "read" }, erin.client);
  });
});
