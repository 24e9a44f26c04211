import { randomUUID } from "node:crypto";
import { getToken } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { clearedSessionCookies, reissuedSessionCookie, sessionCookieName, signedInRecently } from "./revocation";
import { decodeSessionCookie } from "./session";

const SECRET = "revocation-test-secret-0123456789abcdef";
beforeAll(() => {
  process.env.AUTH_SECRET = SECRET;
});

describe("re-issued session cookies", () => {
  it.each([false, true])(
    "a re-issued cookie is read back by Auth.js' getToken under the name Auth.js uses (secure: %s)",
    async (secure) => {
      const { encode } = await import("next-auth/jwt");
      const name = sessionCookieName(secure);
      const sub = randomUUID();
      const original = await encode({
        token: { sub, email: "a@example.com", sid: "s-1", sv: 0, authTime: 100 },
        secret: SECRET,
        salt: name,
      });
      const session = await decodeSessionCookie(`${name}=${original}`, { preferSecure: secure });
      expect(session?.secureCookie).toBe(secure);
      if (!session) throw new Error("not decoded");

      const setCookie = await reissuedSessionCookie(session, 3);
      expect(setCookie).toMatch(new RegExp(`^${name}=[^;]+; Path=/; Expires=[^;]+; HttpOnly; SameSite=Lax`));
      expect(setCookie.includes("; Secure")).toBe(secure);
      const value = setCookie.split(";")[0] ?? "";
      // Auth.js' own reader, with its own choice of cookie name and salt for this kind of cookie.
      const token = await getToken({ req: { headers: { cookie: value } }, secret: SECRET, secureCookie: secure });
      expect(token).toMatchObject({ sub, email: "a@example.com", sid: "s-1", sv: 3, authTime: 100 });
    },
  );

  it("clearing deletes both cookie names", () => {
    const cleared = clearedSessionCookies();
    expect(cleared).toHaveLength(2);
    for (const c of cleared) expect(c).toMatch(/^(__Secure-)?authjs\.session-token=; .*Max-Age=0/);
  });
});

describe("signedInRecently", () => {
  const at = (authTime?: number) =>
    ({ claims: { authTime }, user: { id: "x", email: null, name: null }, token: {}, secureCookie: false }) as never;
  it("within 10 minutes of authTime only; no authTime is not recent", () => {
    const now = 1_000_000_000_000;
    const s = now / 1000;
    expect(signedInRecently(at(s - 60), now)).toBe(true);
    expect(signedInRecently(at(s - 600), now)).toBe(true);
    expect(signedInRecently(at(s - 601), now)).toBe(false);
    expect(signedInRecently(at(undefined), now)).toBe(false);
    expect(signedInRecently(at(s + 3600), now)).toBe(false);
  });
});
