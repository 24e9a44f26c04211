import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { JSON_MAX_DEPTH } from "@/core/config";
import { AppError, type ErrorCode } from "@/core/errors";
import { logger } from "@/core/logger";
import { type Database, type Db, setDatabase } from "@/db/client";
import { idParams } from "@/lib/validation/common";
import { RAW_QUERY_HEADER } from "./body";
import { MAX_BODY_BYTES, route } from "./route";

// Accounts exist unless a test says otherwise (the account check is the wrapper's one query of its own).
const gone = new Set<string>();
vi.mock("@/db/queries/users", () => ({
  userExists: async (_db: unknown, { userId }: { userId: string }) => !gone.has(userId),
}));

// Rate-limit counters live in the database (db/queries/rate-limits.ts, tested on PGlite and
// Postgres in tests/rate-limit.int.test.ts); here the same window in memory, over the fake database.
vi.mock("@/db/queries/rate-limits", () => {
  const windows = new Map<string, { end: number; count: number }>();
  return {
    hitRateLimit: async (_db: unknown, { key, limit, windowMs }: { key: string; limit: number; windowMs: number }) => {
      const now = Date.now();
      const w = windows.get(key);
      const current = w && w.end > now ? w : { end: now + windowMs, count: 0 };
      current.count = Math.min(current.count + 1, limit + 1);
      windows.set(key, current);
      return { count: current.count, resetInMs: current.end - now };
    },
    refundRateLimit: async () => {},
    resetRateLimit: async () => {},
    deleteExpiredRateLimits: async () => {},
  };
});

const SECRET = "route-test-secret-0123456789abcdef";
process.env.AUTH_SECRET = SECRET;
process.env.LIFELINE_CHAT_RATE_LIMIT = "2/60s";

// A stand-in database: the wrapper hands `db` to handlers; these tests only count who asked for it.
const fakeDb = { fake: true } as unknown as Db;
let dbRequests = 0;
const database: Database = {
  get db() {
    dbRequests++;
    return fakeDb;
  },
  kind: "pglite",
  query: async () => [],
  yieldingTo: () => fakeDb,
  migrate: async () => {},
  close: async () => {},
};

beforeAll(() => setDatabase(database));
afterAll(() => setDatabase(undefined));
beforeEach(() => {
  dbRequests = 0;
});

const ctx = (params: Record<string, string> = {}) => ({ params: Promise.resolve(params) });

async function cookieFor(userId: string) {
  return `authjs.session-token=${await encode({ token: { sub: userId }, secret: SECRET, salt: "authjs.session-token" })}`;
}

function req(path: string, init: RequestInit & { cookie?: string; json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("cookie", init.cookie);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return new Request(`http://localhost${path}`, { ...init, headers, body, duplex: "half" } as RequestInit);
}

async function errorOf(res: Response) {
  return (
    (await res.json()) as {
      error: { code: string; message: string; fields?: Record<string, string>; requestId: string };
    }
  ).error;
}

describe("route(): sessions", () => {
  const handler = route({}, async ({ userId }) => ({ userId }));

  it("401 with the error shape and a request id when signed out; the database is not touched", async () => {
    const res = await handler(req("/api/x"), ctx());
    expect(res.status).toBe(401);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({ error: { code: "unauthorized", message: "Sign in to continue", requestId } });
    expect(dbRequests).toBe(0);
  });

  it("passes the signed-in user's id to the handler", async () => {
    const id = randomUUID();
    const res = await handler(req("/api/x", { cookie: await cookieFor(id) }), ctx());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ userId: id });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("401 for a valid session whose account no longer exists", async () => {
    const id = randomUUID();
    gone.add(id);
    const res = await handler(req("/api/x", { cookie: await cookieFor(id) }), ctx());
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe("unauthorized");
  });

  it('auth: "public" lets anyone in, with userId null or the user', async () => {
    const open = route({ auth: "public" }, async ({ userId }) => ({ userId }));
    expect(await (await open(req("/api/x"), ctx())).json()).toEqual({ userId: null });
    const id = randomUUID();
    expect(await (await open(req("/api/x", { cookie: await cookieFor(id) }), ctx())).json()).toEqual({ userId: id });
  });
});

describe("route(): request ids", () => {
  const handler = route({ auth: "public" }, async ({ requestId }) => ({ requestId }));

  it("keeps a well-formed incoming x-request-id and replaces a malformed one", async () => {
    const kept = await handler(req("/api/x", { headers: { "x-request-id": "edge-1234abcd" } }), ctx());
    expect(kept.headers.get("x-request-id")).toBe("edge-1234abcd");
    expect(await kept.json()).toEqual({ requestId: "edge-1234abcd" });
    const replaced = await handler(req("/api/x", { headers: { "x-request-id": "bad id <script>" } }), ctx());
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("on Vercel, the platform's x-vercel-id wins, in the response header and every log line of the request", async () => {
    const vercelId = "fra1::iad1::8x2kq-1764521234567-0a1b2c3d4e5f";
    const lines: { bindings: unknown; fields: unknown; message: unknown }[] = [];
    const child = vi.spyOn(logger, "child").mockImplementation((bindings) => {
      const fake = {
        child: () => fake,
        info: (fields: unknown, message: unknown) => lines.push({ bindings, fields, message }),
        error: () => {},
      };
      return fake as never;
    });
    try {
      const res = await handler(
        req("/api/x", { headers: { "x-vercel-id": vercelId, "x-request-id": "client-chosen-id" } }),
        ctx(),
      );
      expect(res.headers.get("x-request-id")).toBe(vercelId);
      expect(await res.json()).toEqual({ requestId: vercelId });
      expect(lines).toEqual([
        { bindings: expect.objectContaining({ requestId: vercelId }), fields: expect.anything(), message: "request" },
      ]);
    } finally {
      child.mockRestore();
    }
    const malformed = await handler(req("/api/x", { headers: { "x-vercel-id": "no spaces allowed here" } }), ctx());
    expect(malformed.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("route(): results", () => {
  it("data → JSON with `status`; undefined → 204; a Response passes through with the request id", async () => {
    const created = route({ auth: "public", status: 201 }, async () => ({ ok: true }));
    const res = await created(req("/api/x"), ctx());
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true });

    const empty = route({ auth: "public" }, async () => undefined);
    const noContent = await empty(req("/api/x"), ctx());
    expect(noContent.status).toBe(204);
    expect(noContent.headers.get("x-request-id")).toBeTruthy();

    const custom = route({ auth: "public" }, async () => Response.redirect("http://localhost/elsewhere", 302));
    const redirected = await custom(req("/api/x"), ctx());
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toBe("http://localhost/elsewhere");
    expect(redirected.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("route(): bodies", () => {
  const handler = route(
    { auth: "public", body: z.strictObject({ name: z.string().min(1), age: z.number().int().min(0).max(150) }) },
    async ({ body }) => ({ body }),
  );
  const send = (body: BodyInit | undefined, headers: Record<string, string> = { "content-type": "application/json" }) =>
    handler(req("/api/x", { method: "POST", body, headers }), ctx());

  it("parses a valid JSON body (charset parameter allowed)", async () => {
    const res = await send('{"name":"Ada","age":36}', { "content-type": "application/json; charset=utf-8" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ body: { name: "Ada", age: 36 } });
  });

  it("400 naming every bad field, unknown fields included; nothing reaches the database", async () => {
    const res = await send('{"name":"","age":-1,"admin":true}');
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe("bad_request");
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(["body.admin", "body.age", "body.name"]);
    expect(error.fields?.["body.admin"]).toBe("Unknown field");
    expect(error.message).toMatch(/^body\./);
    expect(dbRequests).toBe(0);
  });

  it.each([
    ["malformed JSON", "{", "Malformed JSON"],
    ["an empty body", "", "Request body is required"],
    ["whitespace", "  \n", "Request body is required"],
  ])("400 for %s", async (_, body, message) => {
    const res = await send(body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toEqual({ body: message });
  });

  it("400 for bytes that are not UTF-8", async () => {
    const res = await send(new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
    expect((await errorOf(res)).fields).toEqual({ body: "Request body is not valid UTF-8" });
  });

  it.each([["text/plain"], ["application/x-www-form-urlencoded"], ["multipart/form-data; boundary=x"]])(
    "415 for Content-Type %s",
    async (type) => {
      const res = await send('{"name":"Ada","age":1}', { "content-type": type });
      expect(res.status).toBe(415);
      expect((await errorOf(res)).code).toBe("unsupported_media_type");
    },
  );

  it("415 without a Content-Type", async () => {
    const res = await send(new Blob(['{"name":"Ada","age":1}']), {});
    expect(res.status).toBe(415);
  });

  it("413 when Content-Length is over the cap", async () => {
    const res = await send(`{"name":"${"x".repeat(MAX_BODY_BYTES)}","age":1}`);
    expect(res.status).toBe(413);
    const error = await errorOf(res);
    expect(error.code).toBe("payload_too_large");
    // It says which limit was hit: the body's bytes, not a field's characters.
    expect(error.message).toMatch(
      /^Request body too large: the limit is 256 KB \(262,144 bytes\) of JSON, and this body is [^.]+\. That is the limit on the request's bytes/,
    );
    expect(error.message).toContain("text limits count characters (a chat message: 15,000)");
  });

  it("400 naming the depth limit for a body nested deeper than it, even where the schema takes free JSON", async () => {
    const free = route({ auth: "public", body: z.strictObject({ data: z.json() }) }, async ({ body }) => ({ body }));
    const post = (data: string) =>
      free(
        req("/api/x", { method: "POST", body: `{"data":${data}}`, headers: { "content-type": "application/json" } }),
        ctx(),
      );
    // 1,750 levels in 3.5 KB took zod's recursive z.json() past the call stack: a 500.
    const deep = await post(`${"[".repeat(1750)}${"]".repeat(1750)}`);
    expect(deep.status).toBe(400);
    const error = await errorOf(deep);
    expect(error.fields).toEqual({
      body: `Request body is nested too deeply: at most ${JSON_MAX_DEPTH} levels of arrays and objects`,
    });
    expect(dbRequests).toBe(0);
    // The limit itself is accepted: the body object is level 1, so `data` may hold JSON_MAX_DEPTH − 1.
    const atLimit = await post(`${"[".repeat(JSON_MAX_DEPTH - 1)}${"]".repeat(JSON_MAX_DEPTH - 1)}`);
    expect(atLimit.status).toBe(200);
    expect((await post(`${"[".repeat(JSON_MAX_DEPTH)}${"]".repeat(JSON_MAX_DEPTH)}`)).status).toBe(400);
    expect((await post(`${'{"a":'.repeat(JSON_MAX_DEPTH)}1${"}".repeat(JSON_MAX_DEPTH)}`)).status).toBe(400);
  });

  it("413 when a streamed body without Content-Length grows over the cap", async () => {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await send(stream as unknown as BodyInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(40);
  });
});

describe("route(): params and query", () => {
  const handler = route(
    {
      auth: "public",
      params: idParams,
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(100).optional() }),
    },
    async ({ params, query }) => ({ params, query }),
  );

  it("validates [id] as a UUID and the query strictly", async () => {
    const id = randomUUID();
    const ok = await handler(req(`/api/x/${id}?limit=5`), ctx({ id }));
    expect(await ok.json()).toEqual({ params: { id }, query: { limit: 5 } });
    dbRequests = 0;

    const badId = await handler(req("/api/x/1"), ctx({ id: "1" }));
    expect(badId.status).toBe(400);
    expect((await errorOf(badId)).fields).toEqual({ "params.id": "Must be a valid UUID" });

    const badQuery = await handler(req(`/api/x/${id}?limit=-3&sort=x`), ctx({ id }));
    expect(badQuery.status).toBe(400);
    expect(Object.keys((await errorOf(badQuery)).fields ?? {}).sort()).toEqual(["query.limit", "query.sort"]);
    expect(dbRequests).toBe(0);
  });

  it("reads the query as the client sent it from proxy.ts's header, not Next's re-serialized URL", async () => {
    const id = randomUUID();
    // What Next hands the route for ?limit=%ED%A0%80 and for ?__proto__=1: U+FFFD, and nothing.
    const cases = [
      { url: `/api/x/${id}?limit=%EF%BF%BD`, raw: "limit=%ED%A0%80", field: "query.limit" },
      { url: `/api/x/${id}`, raw: "__proto__=1", field: "query.__proto__" },
      { url: `/api/x/${id}`, raw: "%FF=1", field: "query" },
    ];
    for (const c of cases) {
      const res = await handler(req(c.url, { headers: { [RAW_QUERY_HEADER]: c.raw } }), ctx({ id }));
      expect(res.status, c.raw).toBe(400);
      expect(Object.keys((await errorOf(res)).fields ?? {}), c.raw).toEqual([c.field]);
    }
    const ok = await handler(req(`/api/x/${id}?limit=9`, { headers: { [RAW_QUERY_HEADER]: "limit=5" } }), ctx({ id }));
    expect(await ok.json()).toEqual({ params: { id }, query: { limit: 5 } });
  });
});

describe("route(): errors", () => {
  it.each<[ErrorCode, number]>([
    ["bad_request", 400],
    ["unauthorized", 401],
    ["forbidden", 403],
    ["not_found:note", 404],
    ["conflict:email", 409],
    ["rate_limited", 429],
  ])("AppError %s → %i", async (code, status) => {
    const handler = route({ auth: "public" }, async () => {
      throw new AppError(code, `boom ${code}`);
    });
    const res = await handler(req("/api/x"), ctx());
    expect(res.status).toBe(status);
    const error = await errorOf(res);
    expect(error).toEqual({ code, message: `boom ${code}`, requestId: res.headers.get("x-request-id") });
  });

  it("anything else → 500 internal with the request id, logged with it, no stack or message leaked", async () => {
    const logged: unknown[][] = [];
    const fake = {
      child: () => fake,
      info: () => {},
      error: (...args: unknown[]) => logged.push(args),
    };
    const child = vi.spyOn(logger, "child").mockImplementation(() => fake as never);
    try {
      const handler = route({ auth: "public" }, async () => {
        throw new Error("connection to 10.0.0.5 refused (password=hunter2)");
      });
      const res = await handler(req("/api/x"), ctx());
      expect(res.status).toBe(500);
      const text = await res.text();
      const { error } = JSON.parse(text) as { error: { code: string; requestId: string } };
      expect(error.code).toBe("internal");
      expect(error.requestId).toBe(res.headers.get("x-request-id"));
      expect(text).not.toMatch(/10\.0\.0\.5|hunter2|at .*route/);
      expect(logged).toHaveLength(1);
      const [fields] = (logged[0] ?? []) as [{ err?: Error }?];
      expect(fields?.err?.message).toContain("refused");
      expect(child).toHaveBeenCalledWith(expect.objectContaining({ requestId: error.requestId }));
    } finally {
      child.mockRestore();
    }
  });
});

describe('route(): rateLimit "chat" (LIFELINE_CHAT_RATE_LIMIT=2/60s)', () => {
  const chat = route({ rateLimit: "chat" }, async () => ({ ok: true }));

  it("429 with Retry-After once a user is over the limit; other users and anonymous callers unaffected", async () => {
    const alice = await cookieFor(randomUUID());
    const bob = await cookieFor(randomUUID());
    expect((await chat(req("/api/chat", { cookie: alice }), ctx())).status).toBe(200);
    expect((await chat(req("/api/chat", { cookie: alice }), ctx())).status).toBe(200);
    const limited = await chat(req("/api/chat", { cookie: alice }), ctx());
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
    expect((await errorOf(limited)).code).toBe("rate_limited");
    expect((await chat(req("/api/chat", { cookie: bob }), ctx())).status).toBe(200);
    expect((await chat(req("/api/chat"), ctx())).status).toBe(401);
  });

  it("refuses to be declared on a public route", () => {
    // @ts-expect-error — the types forbid it too
    expect(() => route({ auth: "public", rateLimit: "chat" }, async () => null)).toThrow(/signed-in user/);
  });
});
