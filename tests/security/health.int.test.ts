/**
 * GET /api/health over real HTTP: anonymous callers get only `{ ok, status }`; the details need a
 * live session or LIFELINE_HEALTH_TOKEN; production without AUTH_SECRET is degraded (503).
 */
import { afterEach, describe, expect, it } from "vitest";
import { hasHealthToken } from "@/lib/health";
import { HttpClient, registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";

const SECRET = "health-test-secret-0123456789abcdef";
const TOKEN = "health-token-0123456789-abcdefghij";
process.env.AUTH_SECRET = SECRET;

/** process.env, writable (its NODE_ENV is typed read-only). */
const env = process.env as Record<string, string | undefined>;
const saved = { ...env };
afterEach(() => {
  for (const key of ["AUTH_SECRET", "NODE_ENV", "LIFELINE_HEALTH_TOKEN", "LIFELINE_ALLOW_IN_PROCESS_JOBS"]) {
    if (saved[key] === undefined) delete env[key];
    else env[key] = saved[key];
  }
});

const DETAIL_KEYS = ["db", "pgvector", "model", "embedder", "jobs", "warnings", "failing", "error"];

describe("GET /api/health", () => {
  const ctx = useTestServer("pglite");
  const get = (headers: Record<string, string> = {}, client = new HttpClient(ctx.server.url)) =>
    client.request("GET", "/api/health", { headers });

  it("anonymous: only { ok, status }, no details", async () => {
    process.env.LIFELINE_HEALTH_TOKEN = TOKEN;
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("a wrong, empty or non-Bearer token gets the anonymous view", async () => {
    process.env.LIFELINE_HEALTH_TOKEN = TOKEN;
    for (const authorization of [`Bearer ${TOKEN}x`, "Bearer ", `Basic ${TOKEN}`, TOKEN, `Bearer ${TOKEN.slice(1)}`]) {
      const res = await get({ authorization });
      expect(res.json, authorization).toEqual({ ok: true, status: "ok" });
    }
  });

  it("without LIFELINE_HEALTH_TOKEN configured, no bearer token opens the details", async () => {
    delete process.env.LIFELINE_HEALTH_TOKEN;
    expect((await get({ authorization: "Bearer " })).json).toEqual({ ok: true, status: "ok" });
    expect((await get({ authorization: "Bearer undefined" })).json).toEqual({ ok: true, status: "ok" });
  });

  it("the health token: the details", async () => {
    process.env.LIFELINE_HEALTH_TOKEN = TOKEN;
    const res = await get({ authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ok: true, status: "ok", db: "pglite", jobs: expect.any(String) });
    expect((res.json as { pgvector: string }).pgvector).toMatch(/^\d+\.\d+/);
  });

  it("a signed-in user: the details", async () => {
    const user = await registerAndSignIn(ctx.server.url, "health");
    const res = await get({}, user.client);
    expect(res.json).toMatchObject({ ok: true, db: "pglite", model: expect.any(String), embedder: expect.any(String) });
  });

  it("a forged session cookie gets the anonymous view", async () => {
    const res = await get({ cookie: "authjs.session-token=not.a.real.token" });
    expect(Object.keys(res.json as object).sort()).toEqual(["ok", "status"]);
  });

  it("production without AUTH_SECRET: 503 degraded; the details name AUTH_SECRET, anonymous sees no more", async () => {
    process.env.LIFELINE_HEALTH_TOKEN = TOKEN;
    env.NODE_ENV = "production";
    delete process.env.AUTH_SECRET;
    const anonymous = await get();
    expect(anonymous.status).toBe(503);
    expect(anonymous.json).toEqual({ ok: false, status: "degraded" });
    const detailed = await get({ authorization: `Bearer ${TOKEN}` });
    expect(detailed.status).toBe(503);
    expect(detailed.json).toMatchObject({ ok: false, status: "degraded", failing: "auth", db: "pglite" });
    expect((detailed.json as { error: string }).error).toContain("AUTH_SECRET");
    for (const key of DETAIL_KEYS) expect(anonymous.json).not.toHaveProperty(key);
  });

  it("production with AUTH_SECRET is ok", async () => {
    env.NODE_ENV = "production";
    process.env.AUTH_SECRET = SECRET;
    expect((await get()).json).toEqual({ ok: true, status: "ok" });
  });

  it("production on the in-process runner and PGlite (allowed): ok, and the details warn about both", async () => {
    process.env.LIFELINE_HEALTH_TOKEN = TOKEN;
    process.env.AUTH_SECRET = SECRET;
    process.env.LIFELINE_ALLOW_IN_PROCESS_JOBS = "1";
    expect((await get({ authorization: `Bearer ${TOKEN}` })).json).toMatchObject({ ok: true, warnings: [] });
    env.NODE_ENV = "production";
    const res = await get({ authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    const { jobs, warnings } = res.json as { jobs: string; warnings: string[] };
    expect(jobs).toBe("in-process");
    expect(warnings).toEqual([
      expect.stringContaining("LIFELINE_ALLOW_IN_PROCESS_JOBS=1"),
      expect.stringContaining("LIFELINE_ALLOW_EMBEDDED_DB=1"),
    ]);
    expect((await get()).json).toEqual({ ok: true, status: "ok" });
  });
});

describe("hasHealthToken", () => {
  const req = (authorization?: string) =>
    new Request("http://x/api/health", { headers: authorization ? { authorization } : {} });
  it("matches only `Bearer <the token>`", () => {
    const configured = { NODE_ENV: "test", LIFELINE_HEALTH_TOKEN: ` ${TOKEN} ` } as NodeJS.ProcessEnv;
    expect(hasHealthToken(req(`Bearer ${TOKEN}`), configured)).toBe(true);
    expect(hasHealthToken(req(`bearer ${TOKEN}`), configured)).toBe(true);
    expect(hasHealthToken(req(`Bearer ${TOKEN} extra`), configured)).toBe(false);
    expect(hasHealthToken(req(), configured)).toBe(false);
    expect(hasHealthToken(req(`Bearer ${TOKEN}`), { NODE_ENV: "test" } as NodeJS.ProcessEnv)).toBe(false);
    expect(hasHealthToken(req("Bearer "), { NODE_ENV: "test", LIFELINE_HEALTH_TOKEN: "  " } as NodeJS.ProcessEnv)).toBe(
      false,
    );
  });
});
