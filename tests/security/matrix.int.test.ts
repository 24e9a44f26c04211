/**
 * Security regression matrix: every API route × method, over real HTTP (tests/http-server.ts) on a
 * real database, PGlite and Postgres. Cases come from ONE registry, tests/security/route-cases.ts;
 * a route file without an entry there fails the first test.
 *
 * Users sign in through the real Auth.js Credentials flow (csrf + callback). Forged cookies are
 * minted with the encoder Auth.js itself uses (next-auth/jwt `encode`).
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { accessTokens } from "@/db/schema";
import { setAiRegistry } from "@/lib/ai/registry";
import { newAccessTokenSecret } from "@/lib/auth/access-tokens";
import { afterResponseIdle } from "@/lib/jobs/after-response";
import { getInProcessImportRunner, getInProcessRunner } from "@/lib/runtime";
import { DB_KINDS } from "@/tests/db";
import { type FakeTranscriber, startFakeTranscriber } from "@/tests/fixtures/fake-transcriber";
import { SPEECH_WAV } from "@/tests/fixtures/speech";
import { offlineWithTranscriber } from "@/tests/fixtures/transcriber";
import { HttpClient, type HttpResult, registerAndSignIn } from "@/tests/http-client";
import { type HttpMethod, loadRoutes, startTestServer, type TestServer } from "@/tests/http-server";
import { useTestDatabase } from "@/tests/test-database";
import { ownedSnapshot, snapshot } from "./db-snapshot";
import {
  type Actor,
  type Fixture,
  type InvalidQuery,
  type InvalidRequest,
  ownedAccessToken,
  type RouteCase,
  type RouteKey,
  routeCases,
} from "./route-cases";

const SECRET = "security-matrix-secret-0123456789abcdef";
process.env.AUTH_SECRET = SECRET;
// The matrix sends dozens of requests per user to /api/chat: rate limiting has its own tests.
process.env.LIFELINE_CHAT_RATE_LIMIT = "off";
process.env.LIFELINE_OFFLINE_DELAY_MS = "0";
// Likewise the access-token limits: the matrix sends many requests with tokens.
process.env.LIFELINE_ACCESS_TOKEN_RATE_LIMIT = "off";
process.env.LIFELINE_ACCESS_TOKEN_USER_RATE_LIMIT = "off";
const COOKIE = "authjs.session-token";

const UUID_IN_PATH = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Path segments that are not UUIDs, already URL-encoded. */
const BAD_IDS = [
  "not-a-uuid",
  "123",
  "00000000-0000-0000-0000-00000000000g",
  encodeURIComponent("' OR '1'='1"),
  `${randomUUID()}x`,
  "%00",
];

/** Malformed bodies every JSON route must reject, built from its valid body. */
const GENERIC_JSON_INVALID: ((valid: unknown) => InvalidRequest)[] = [
  () => ({ name: "malformed JSON", raw: '{"oops": ', field: "body" }),
  (valid) => ({
    name: "JSON sent as text/plain",
    raw: JSON.stringify(valid),
    contentType: "text/plain",
    status: 415,
    code: "unsupported_media_type",
  }),
  (valid) => ({
    name: "no content type",
    raw: JSON.stringify(valid),
    contentType: null,
    status: 415,
    code: "unsupported_media_type",
  }),
  () => ({ name: "empty body", raw: "", field: "body" }),
  () => ({ name: "array body", json: [], field: "body" }),
  () => ({ name: "null body", raw: "null", field: "body" }),
  () => ({ name: "string body", json: "just a string", field: "body" }),
  () => ({ name: "number body", raw: "42", field: "body" }),
  () => ({ name: "unknown extra field", patch: (v) => ({ ...v, isAdmin: true }), field: "body.isAdmin" }),
  (valid) => ({
    name: "__proto__ key",
    raw: JSON.stringify(valid).replace(/^\{/, '{"__proto__":{"isAdmin":true},'),
    field: "body.__proto__",
  }),
  () => ({
    name: "invalid UTF-8",
    raw: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    field: "body",
  }),
  (valid) => ({
    // 1,750 levels in 3.5 KB: a recursive schema (zod's z.json(), the MCP message's params) ran out of stack on it.
    name: "nested 1,750 levels deep",
    raw: JSON.stringify(valid).replace(/^\{/, `{"nested":${"[".repeat(1750)}${"]".repeat(1750)},`),
    field: "body",
  }),
  () => ({
    name: "body over 256 KB",
    patch: (v) => ({ ...v, padding: "x".repeat(270_000) }),
    status: 413,
    code: "payload_too_large",
  }),
];

/**
 * Query strings every route with a `query` schema must refuse (400 naming the field, nothing
 * written), for each of its string parameters: NUL (Postgres rejects 0x00: this was a 500), an
 * encoded unpaired surrogate and other invalid UTF-8, the parameter given twice; plus an unknown one.
 */
const GENERIC_QUERY_INVALID = (strings: string[]): InvalidQuery[] => [
  ...strings.flatMap((name) => [
    { name: `${name} with NUL`, query: `${name}=a%00b`, field: `query.${name}` },
    { name: `${name} that is only NUL`, query: `${name}=%00`, field: `query.${name}` },
    { name: `${name} with an encoded unpaired surrogate`, query: `${name}=a%ED%A0%80`, field: `query.${name}` },
    { name: `${name} with invalid UTF-8`, query: `${name}=%FF%FE`, field: `query.${name}` },
    { name: `${name} given twice (an array, not a string)`, query: `${name}=a&${name}=b`, field: `query.${name}` },
  ]),
  { name: "an unknown parameter", query: "isAdmin=true", field: "query.isAdmin" },
  { name: "a parameter named __proto__", query: "__proto__=x", field: "query.__proto__" },
];

const mounted = await loadRoutes();
const discovered = mounted.flatMap((r) => r.methods.map((m) => `${m} ${r.pattern}`)).sort();
const registered = Object.keys(routeCases).sort();

let executed = 0;
const perKind: Record<string, number> = {};

function check(kind: string, name: string, fn: () => Promise<void>) {
  it(name, async () => {
    await fn();
    executed++;
    perKind[kind] = (perKind[kind] ?? 0) + 1;
  });
}

// A successful chat turn or import start leaves work behind (saving the extraction row, running the
// job): let it finish before the next case snapshots the database, or that case would see someone else's write.
afterEach(async () => {
  await afterResponseIdle();
  await getInProcessRunner().idle();
  await getInProcessImportRunner().idle();
});

afterAll(() => {
  const detail = Object.entries(perKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  console.log(
    `security matrix: ${executed} cases (${detail}) over ${discovered.length} route methods; ` +
      `${walkedResponses} JSON responses walked for internal columns`,
  );
});

it("every API route and method has exactly one case in tests/security/route-cases.ts", () => {
  const missing = discovered.filter((k) => !registered.includes(k));
  const stale = registered.filter((k) => !discovered.includes(k));
  expect({ missing, stale }, "add a case for each missing route; remove cases of deleted routes").toEqual({
    missing: [],
    stale: [],
  });
  executed++;
});

it("every route method with a query schema has query cases in route-cases.ts", () => {
  const withQuery = mounted.flatMap((r) => {
    const source = readFileSync(r.file, "utf8");
    return r.methods
      .filter((m) => new RegExp(`export const ${m} = route\\(\\s*\\{[^}]*\\bquery:`).test(source))
      .map((m) => `${m} ${r.pattern}`);
  });
  expect(withQuery.length).toBeGreaterThan(0);
  const missing = withQuery.filter((key) => !routeCases[key as RouteKey]?.query);
  expect(missing, "add `query: { strings, invalid }` to these routes' cases").toEqual([]);
  executed++;
});

it("every route that accepts access tokens says so in route-cases.ts, with the same scope", () => {
  const declared = mounted.flatMap((r) => {
    const source = readFileSync(r.file, "utf8");
    return r.methods.flatMap((m) => {
      const found = new RegExp(`export const ${m} = route\\(\\s*\\{[^}]*\\bbearer: "(read|write)"`).exec(source);
      return found ? [`${m} ${r.pattern} ${found[1]}`] : [];
    });
  });
  expect(declared.length).toBeGreaterThan(0);
  const registeredBearer = (Object.entries(routeCases) as [RouteKey, RouteCase][])
    .filter(([, rc]) => rc.bearer)
    .map(([key, rc]) => `${key} ${rc.bearer}`);
  expect(registeredBearer.sort()).toEqual(declared.sort());
  executed++;
});

function firstParamName(pattern: string): string {
  return /\[([^\].]+)\]/.exec(pattern)?.[1] ?? "id";
}

/** The fixture with its resource id replaced: in the path, or in the body field the case names. */
function withResourceId(rc: RouteCase, fixture: Fixture, id: string): Fixture {
  if (!rc.resourceIdInBody) return { ...fixture, path: fixture.path.replace(UUID_IN_PATH, id) };
  const json = fixture.json as Record<string, unknown>;
  return { ...fixture, json: { ...json, [rc.resourceIdInBody]: decodeURIComponent(id) } };
}

function expectError(res: HttpResult, rc: RouteCase, status: number, code: string, field?: string) {
  expect(res.status, res.text).toBe(status);
  if (rc.wrapped === false) return;
  const body = res.json as {
    error?: { code: string; message: string; fields?: Record<string, string>; requestId: string };
  };
  expect(body?.error?.code, res.text).toBe(code);
  expect(body.error?.message).toEqual(expect.any(String));
  expect(body.error?.requestId).toBe(res.headers.get("x-request-id"));
  expect(res.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  if (field) {
    expect(Object.keys(body.error?.fields ?? {}), res.text).toContain(field);
    expect(body.error?.fields?.[field]).toMatch(/\S/);
  }
}

/**
 * Internal columns no response may carry, under the name drizzle gives them or the SQL one: the
 * full-text columns (messages' and memories' search vectors, memories' BM25 length), the embedding
 * vector and the password hash.
 */
const INTERNAL_KEYS = new Set([
  "searchVector",
  "search_vector",
  "searchLength",
  "search_length",
  "embedding",
  "passwordHash",
  "password_hash",
]);

/** The path of every key of `value` (walked to the leaves) that names an internal column. */
function internalKeysIn(value: unknown, path = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => internalKeysIn(item, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(INTERNAL_KEYS.has(key) ? [`${path}.${key}`] : []),
    ...internalKeysIn(item, `${path}.${key}`),
  ]);
}

let walkedResponses = 0;

function expectRequestId(res: HttpResult, rc: RouteCase) {
  if (rc.wrapped !== false) expect(res.headers.get("x-request-id")).toMatch(/\S{8,}/);
}

describe.each(DB_KINDS)("security matrix on %s", (kind) => {
  const database = useTestDatabase(kind);
  let server: TestServer;
  let owner: Actor;
  let intruder: Actor;
  let transcriber: FakeTranscriber;
  let n = 0;
  const unique = () => `${kind}-${process.pid}-${++n}`;

  beforeAll(async () => {
    server = await startTestServer({ database });
    // The offline models, and a transcriber (POST /api/transcribe) on a scripted OpenAI-compatible server.
    transcriber = await startFakeTranscriber({ transcript: SPEECH_WAV.text });
    await SPEECH_WAV.ready();
    setAiRegistry(offlineWithTranscriber(transcriber.baseURL));
    owner = await registerAndSignIn(server.url, `owner-${kind}`);
    intruder = await registerAndSignIn(server.url, `intruder-${kind}`);
  });
  afterAll(async () => {
    setAiRegistry(undefined);
    await transcriber?.close();
    await server?.close();
  });

  const setup = (rc: RouteCase, actor: Actor) => rc.setup({ db: database.db, actor, unique: unique() });

  /** Every response of the matrix goes through here: none may carry an internal column. */
  async function send(client: HttpClient, method: string, fixture: Fixture, override?: Partial<InvalidRequest>) {
    const res = await sendOnce(client, method, fixture, override);
    expect(internalKeysIn(res.json), `${method} ${fixture.path}: internal columns in the response`).toEqual([]);
    if (res.json !== undefined) walkedResponses++;
    return res;
  }

  async function sendOnce(client: HttpClient, method: string, fixture: Fixture, override?: Partial<InvalidRequest>) {
    const { path } = fixture;
    // The fixture's own headers, and the actor's token on a token-only route (ActingClient).
    const extra = { ...fixture.headers, ...tokenHeaders.get(client) };
    if (fixture.form && !override) return client.request(method, path, { form: await fixture.form(client) });
    if (fixture.raw !== undefined && !override)
      return client.request(method, path, {
        body: fixture.raw,
        headers: { ...extra, "content-type": "application/json" },
      });
    if (override?.multipart) return client.request(method, path, { multipart: override.multipart() });
    if (fixture.multipart && !override) return client.request(method, path, { multipart: fixture.multipart() });
    if (override?.raw !== undefined) {
      const headers: Record<string, string> = { ...extra };
      if (override.contentType !== null) headers["content-type"] = override.contentType ?? "application/json";
      return client.request(method, path, { body: override.raw, headers });
    }
    if (override?.json !== undefined) return client.request(method, path, { json: override.json, headers: extra });
    return client.request(
      method,
      path,
      fixture.json === undefined ? { headers: extra } : { json: fixture.json, headers: extra },
    );
  }

  /** Clients that act with an access token instead of a session (token-only routes), and their header. */
  const tokenHeaders = new WeakMap<HttpClient, Record<string, string>>();

  /**
   * Who sends the route's valid and invalid requests as `actor`: their signed-in client, or — on a
   * token-only route (`bearerOnly`) — a client without cookies carrying a fresh token of theirs.
   * Call it before taking a snapshot: minting the token writes a row.
   */
  async function actingAs(rc: RouteCase, actor: Actor): Promise<HttpClient> {
    if (!rc.bearerOnly) return actor.client;
    const scope = rc.bearer === "write" ? "read+write" : "read";
    const { secret } = await ownedAccessToken(database.db, actor.id, { scope });
    const client = anonymousClient();
    tokenHeaders.set(client, { authorization: `Bearer ${secret}` });
    return client;
  }

  function sendWithToken(client: HttpClient, secret: string, method: string, fixture: Fixture) {
    const headers = { ...fixture.headers, authorization: `Bearer ${secret}` };
    return client.request(
      method,
      fixture.path,
      fixture.json === undefined ? { headers } : { json: fixture.json, headers },
    );
  }

  function anonymousClient(cookie?: string) {
    const client = new HttpClient(server.url);
    if (cookie) {
      const [name = "", value = ""] = cookie.split(/=(.*)/s);
      client.cookies.set(name, value);
    }
    return client;
  }

  for (const [key, rc] of Object.entries(routeCases) as [RouteKey, RouteCase][]) {
    const [method, pattern] = key.split(" ") as [HttpMethod, string];

    describe(key, () => {
      if (rc.access === "public") {
        check(kind, "anonymous → success", async () => {
          const fixture = await setup(rc, owner);
          const res = await send(anonymousClient(), method, fixture);
          expect(res.status, res.text).toBe(rc.success);
          expectRequestId(res, rc);
          await fixture.check?.(res);
        });
      } else {
        check(kind, "anonymous → 401, nothing written", async () => {
          const fixture = await setup(rc, owner);
          const before = await snapshot(database);
          const res = await send(anonymousClient(), method, fixture);
          expectError(res, rc, 401, "unauthorized");
          expect(await snapshot(database)).toEqual(before);
        });

        const forgeries: [string, () => Promise<string>][] = [
          ["a garbage session cookie", async () => `${COOKIE}=not.a.real.token`],
          [
            "a session cookie encrypted with another secret",
            async () =>
              `${COOKIE}=${await encode({ token: { sub: owner.id }, secret: "some-other-secret-0123456789", salt: COOKIE })}`,
          ],
          [
            "an expired session cookie",
            async () =>
              `${COOKIE}=${await encode({ token: { sub: owner.id }, secret: SECRET, salt: COOKIE, maxAge: -3600 })}`,
          ],
          [
            "a session cookie under the other cookie name (wrong salt)",
            async () =>
              `__Secure-${COOKIE}=${await encode({ token: { sub: owner.id }, secret: SECRET, salt: COOKIE })}`,
          ],
        ];
        for (const [label, mint] of forgeries) {
          check(kind, `${label} → 401, nothing written`, async () => {
            const fixture = await setup(rc, owner);
            const before = await snapshot(database);
            const res = await send(anonymousClient(await mint()), method, fixture);
            expectError(res, rc, 401, "unauthorized");
            expect(await snapshot(database)).toEqual(before);
          });
        }

        check(kind, "a valid session of a user that does not exist → no data, nothing written", async () => {
          const fixture = await setup(rc, owner);
          const before = await snapshot(database);
          const ghost = await encode({ token: { sub: randomUUID() }, secret: SECRET, salt: COOKIE });
          const res = await send(anonymousClient(`${COOKIE}=${ghost}`), method, fixture);
          expectError(res, rc, 401, "unauthorized");
          expect(await snapshot(database)).toEqual(before);
        });
      }

      if (rc.access === "user" && !rc.bearer) {
        check(kind, "the owner's read+write access token → 403 forbidden:access_token, nothing written", async () => {
          const fixture = await setup(rc, owner);
          const { secret } = await ownedAccessToken(database.db, owner.id);
          const before = await snapshot(database);
          const res = await sendWithToken(anonymousClient(), secret, method, fixture);
          expectError(res, rc, 403, "forbidden:access_token");
          expect(await snapshot(database)).toEqual(before);
        });
        check(kind, "a session cookie with an access token too → 403, nothing written", async () => {
          const fixture = await setup(rc, owner);
          const { secret } = await ownedAccessToken(database.db, owner.id);
          const before = await snapshot(database);
          const res = await sendWithToken(owner.client, secret, method, fixture);
          expectError(res, rc, 403, "forbidden:access_token");
          expect(await snapshot(database)).toEqual(before);
        });
      }
      if (rc.bearer) {
        const needed = rc.bearer === "write" ? "read+write" : "read";
        check(kind, `the owner's ${needed} access token, no cookie → ${rc.success}`, async () => {
          const fixture = await setup(rc, owner);
          const { secret } = await ownedAccessToken(database.db, owner.id, { scope: needed });
          const res = await sendWithToken(anonymousClient(), secret, method, fixture);
          expect(res.status, res.text).toBe(rc.success);
          expectRequestId(res, rc);
          await fixture.check?.(res);
        });
        if (rc.bearer === "write") {
          check(kind, "a read-only access token → 403 forbidden:scope, nothing written", async () => {
            const fixture = await setup(rc, owner);
            const { secret } = await ownedAccessToken(database.db, owner.id, { scope: "read" });
            const before = await snapshot(database);
            const res = await sendWithToken(anonymousClient(), secret, method, fixture);
            expectError(res, rc, 403, "forbidden:scope");
            expect(await snapshot(database)).toEqual(before);
          });
        }
        const refused: [string, () => Promise<string>][] = [
          [
            "a revoked access token",
            async () => {
              const { id, secret } = await ownedAccessToken(database.db, owner.id);
              await database.db.update(accessTokens).set({ revokedAt: new Date() }).where(sql`id = ${id}`);
              return secret;
            },
          ],
          [
            "an expired access token",
            async () =>
              (await ownedAccessToken(database.db, owner.id, { expiresAt: new Date(Date.now() - 1000) })).secret,
          ],
          [
            "an access token of ended sessions (older session version)",
            async () => {
              const { id, secret } = await ownedAccessToken(database.db, owner.id);
              await database.db
                .update(accessTokens)
                .set({ sessionVersion: sql`session_version - 1` })
                .where(sql`id = ${id}`);
              return secret;
            },
          ],
          ["an unknown access token", async () => newAccessTokenSecret()],
          ["a malformed access token", async () => "llt_short"],
        ];
        for (const [label, mint] of refused) {
          check(kind, `${label} → 401, nothing written`, async () => {
            const fixture = await setup(rc, owner);
            const secret = await mint();
            const before = await snapshot(database);
            const res = await sendWithToken(anonymousClient(), secret, method, fixture);
            expectError(res, rc, 401, "unauthorized");
            expect(await snapshot(database)).toEqual(before);
          });
        }
        if (rc.scope === "resource") {
          check(kind, "another user's access token → 404, nothing written", async () => {
            const fixture = await setup(rc, owner);
            const { secret } = await ownedAccessToken(database.db, intruder.id);
            const before = await snapshot(database);
            const res = await sendWithToken(anonymousClient(), secret, method, fixture);
            expect(res.status, res.text).toBe(404);
            expect((res.json as { error: { code: string } }).error.code).toMatch(/^not_found:/);
            expect(await snapshot(database)).toEqual(before);
          });
        }
      }

      if (rc.bearerOnly) {
        check(kind, "the owner's session, no token → 403 forbidden:session, nothing written", async () => {
          const fixture = await setup(rc, owner);
          const before = await snapshot(database);
          const res = await send(owner.client, method, fixture);
          expectError(res, rc, 403, "forbidden:session");
          expect(await snapshot(database)).toEqual(before);
        });
      }

      if (rc.scope === "resource") {
        check(kind, "another user → 404, nothing written", async () => {
          const fixture = await setup(rc, owner);
          const before = await snapshot(database);
          const res = await send(intruder.client, method, fixture);
          expect(res.status, res.text).toBe(404);
          expect((res.json as { error: { code: string } }).error.code).toMatch(/^not_found:/);
          expectRequestId(res, rc);
          expect(await snapshot(database)).toEqual(before);
        });

        check(kind, "a missing id → the same 404 as a foreign one", async () => {
          const fixture = await setup(rc, owner);
          const foreign = await send(await actingAs(rc, intruder), method, fixture);
          const missing = await send(await actingAs(rc, owner), method, withResourceId(rc, fixture, randomUUID()));
          const answer = (r: HttpResult) => ({
            status: r.status,
            error: { ...(r.json as { error?: object } | undefined)?.error, requestId: undefined },
          });
          expect(answer(missing).status, missing.text).toBe(404);
          expect(answer(foreign)).toEqual(answer(missing));
        });

        const idField = rc.resourceIdInBody ? `body.${rc.resourceIdInBody}` : `params.${firstParamName(pattern)}`;
        for (const bad of BAD_IDS) {
          check(kind, `id "${decodeURIComponent(bad).replace("\u0000", "\\0")}" → 400 ${idField}`, async () => {
            const fixture = await setup(rc, owner);
            const before = await snapshot(database);
            const res = await send(await actingAs(rc, owner), method, withResourceId(rc, fixture, bad));
            expectError(res, rc, 400, "bad_request", idField);
            expect(await snapshot(database)).toEqual(before);
          });
        }
      }

      if (rc.scope === "self") {
        check(kind, "another user acting → their own account only, the owner's data unchanged", async () => {
          const fixture = await setup(rc, intruder);
          const client = await actingAs(rc, intruder);
          const before = await ownedSnapshot(database, owner.id);
          const res = await send(client, method, fixture);
          expect(res.status, res.text).toBe(rc.success);
          expect(await ownedSnapshot(database, owner.id)).toEqual(before);
        });
      }

      check(kind, `the owner → ${rc.success}`, async () => {
        const fixture = await setup(rc, owner);
        expect(fixture.json !== undefined, '`body: "json"` ⇔ the fixture has a JSON body').toBe(rc.body === "json");
        const res = await send(await actingAs(rc, owner), method, fixture);
        expect(res.status, res.text).toBe(rc.success);
        expectRequestId(res, rc);
        await fixture.check?.(res);
      });

      for (const variant of rc.variants ?? []) {
        check(kind, `valid: ${variant.name} → ${variant.status}`, async () => {
          const fixture = await variant.setup({ db: database.db, actor: owner, unique: unique() });
          const res = await send(await actingAs(rc, owner), method, fixture);
          expect(res.status, res.text).toBe(variant.status);
          await fixture.check?.(res);
        });
      }

      if (rc.query) {
        for (const spec of [...GENERIC_QUERY_INVALID(rc.query.strings), ...rc.query.invalid]) {
          check(kind, `invalid query: ${spec.name}`, async () => {
            const fixture = await setup(rc, owner);
            const path = `${fixture.path.split("?")[0]}?${spec.query}`;
            const client = await actingAs(rc, owner);
            const before = await snapshot(database);
            const res = await send(client, method, { ...fixture, path });
            expectError(res, rc, 400, "bad_request", spec.field);
            expect(await snapshot(database)).toEqual(before);
          });
        }
      }

      const all: ((valid: unknown) => InvalidRequest)[] = [
        ...(rc.body === "json" ? GENERIC_JSON_INVALID : []),
        ...(rc.invalid ?? []).map((i) => () => i),
      ];
      for (const make of all) {
        const name = make({}).name;
        check(kind, `invalid: ${name}`, async () => {
          const fixture = await setup(rc, owner);
          const valid = (fixture.json ?? {}) as Record<string, unknown>;
          const spec = make(valid);
          const override: Partial<InvalidRequest> = spec.patch
            ? { json: spec.patch(valid, { db: database.db, actor: owner, unique: unique(), others: [intruder] }) }
            : spec;
          const client = await actingAs(rc, owner);
          const before = await snapshot(database);
          const res = await send(client, method, fixture, override);
          const status = spec.status ?? 400;
          expectError(res, rc, status, spec.code ?? "bad_request", status === 400 ? spec.field : undefined);
          if (status === 400) expect(spec.field, "a 400 case must name its field").toBeDefined();
          expect(await snapshot(database)).toEqual(before);
        });
      }
    });
  }
});
