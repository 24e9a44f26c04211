import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bearerOf, hashAccessToken, isAccessTokenSecret, newAccessTokenSecret, scopeAllows } from "./access-tokens";

const withAuth = (value?: string) =>
  new Request("http://localhost/api/memories", value === undefined ? {} : { headers: { authorization: value } });

describe("access token secrets", () => {
  it("are llt_ and 256 random bits in base64url, never the same twice", () => {
    const secrets = new Set(Array.from({ length: 200 }, () => newAccessTokenSecret()));
    expect(secrets.size).toBe(200);
    for (const secret of secrets) {
      expect(secret).toMatch(/^llt_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret.slice(4), "base64url")).toHaveLength(32);
      expect(isAccessTokenSecret(secret)).toBe(true);
    }
  });

  it("are stored as their hex SHA-256", () => {
    const secret = newAccessTokenSecret();
    expect(hashAccessToken(secret)).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(hashAccessToken(secret)).not.toBe(hashAccessToken(newAccessTokenSecret()));
  });
});

describe("bearerOf", () => {
  const secret = newAccessTokenSecret();
  it("is null without an Authorization header", () => expect(bearerOf(withAuth())).toBeNull());
  it("reads Bearer <token>, the scheme in any case (RFC 6750)", () => {
    expect(bearerOf(withAuth(`Bearer ${secret}`))).toEqual({ secret });
    expect(bearerOf(withAuth(`bearer ${secret}`))).toEqual({ secret });
  });
  // What a basic-auth proxy in front adds, or another service's bearer: not ours to judge, so the
  // request is judged on its session cookie.
  it.each([
    ["Basic credentials", `Basic ${Buffer.from("a:b").toString("base64")}`],
    ["Digest credentials", 'Digest username="a", realm="b", nonce="c", uri="/", response="d"'],
    ["an empty header", ""],
    ["a bare scheme", "Bearer"],
    ["a bearer that is not an llt_ token", "Bearer abc.def.ghi"],
    ["no token", "Bearer "],
  ])("is null (no token attempt) for %s", (_, value) => expect(bearerOf(withAuth(value))).toBeNull());
  it.each([
    ["a short llt_ token", "Bearer llt_abc"],
    ["two tokens", `Bearer ${secret} ${secret}`],
    ["a token with a bad character", `Bearer ${secret.slice(0, -1)}*`],
  ])("is malformed for %s", (_, value) => expect(bearerOf(withAuth(value))).toEqual({ malformed: true }));
});

describe("scopeAllows", () => {
  it("lets any token read and only read+write tokens write", () => {
    expect(scopeAllows("read", "read")).toBe(true);
    expect(scopeAllows("read+write", "read")).toBe(true);
    expect(scopeAllows("read+write", "write")).toBe(true);
    expect(scopeAllows("read", "write")).toBe(false);
  });
});
