import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { getRequestSession, sessionFromCookieHeader } from "./session";

const SECRET = "session-test-secret-0123456789abcdef";
const PLAIN = "authjs.session-token";
const SECURE = "__Secure-authjs.session-token";

beforeAll(() => {
  process.env.AUTH_SECRET = SECRET;
});

const mint = (sub: unknown, options: { salt?: string; secret?: string; maxAge?: number } = {}) =>
  encode({
    token: { sub: sub as string, email: "a@example.com", name: "A" },
    secret: options.secret ?? SECRET,
    salt: options.salt ?? PLAIN,
    maxAge: options.maxAge,
  });

describe("sessionFromCookieHeader", () => {
  it("reads the http cookie (authjs.session-token) Auth.js writes", async () => {
    const id = randomUUID();
    const cookie = `other=1; ${PLAIN}=${await mint(id)}; x=y`;
    expect(await sessionFromCookieHeader(cookie)).toEqual({ id, email: "a@example.com", name: "A" });
  });

  it("reads the https cookie (__Secure-authjs.session-token), salted with its own name", async () => {
    const id = randomUUID();
    expect((await sessionFromCookieHeader(`${SECURE}=${await mint(id, { salt: SECURE })}`))?.id).toBe(id);
  });

  it("rejects a token moved to the other cookie name (salt mismatch)", async () => {
    const id = randomUUID();
    expect(await sessionFromCookieHeader(`${SECURE}=${await mint(id, { salt: PLAIN })}`)).toBeNull();
    expect(await sessionFromCookieHeader(`${PLAIN}=${await mint(id, { salt: SECURE })}`)).toBeNull();
  });

  it("rejects another secret, expiry, garbage, and a subject that is not a user id", async () => {
    expect(
      await sessionFromCookieHeader(`${PLAIN}=${await mint(randomUUID(), { secret: "x".repeat(40) })}`),
    ).toBeNull();
    expect(await sessionFromCookieHeader(`${PLAIN}=${await mint(randomUUID(), { maxAge: -60 })}`)).toBeNull();
    expect(await sessionFromCookieHeader(`${PLAIN}=garbage`)).toBeNull();
    expect(await sessionFromCookieHeader(`${PLAIN}=${await mint("1 OR 1=1")}`)).toBeNull();
    expect(await sessionFromCookieHeader(`${PLAIN}=${await mint(undefined)}`)).toBeNull();
    expect(await sessionFromCookieHeader("")).toBeNull();
    expect(await sessionFromCookieHeader(null)).toBeNull();
  });

  it("ignores Authorization: Bearer — sessions come from the cookie only", async () => {
    const request = new Request("http://localhost/api/account", {
      headers: { authorization: `Bearer ${await mint(randomUUID())}` },
    });
    expect(await getRequestSession(request)).toBeNull();
  });
});
