/**
 * THE place a session is read from a request: the Auth.js session cookie, decrypted with the same
 * secret and salt the Auth.js config uses (lib/auth/config.ts). The route wrapper, proxy.ts and
 * server components all come here.
 *
 * Why not NextAuth's `auth()`: without arguments it reads `next/headers`, which only exists inside
 * Next's request scope; route handlers mounted in tests (and any other caller holding a plain
 * `Request`) have none. Decoding the cookie needs nothing but the request.
 *
 * Auth.js names the cookie `__Secure-authjs.session-token` on https and `authjs.session-token` on
 * http, and salts its key derivation with that name. Both names are tried; a cookie only decrypts
 * under its own name's salt, so one cannot stand in for the other. Bearer tokens are not accepted.
 */
import { getToken } from "next-auth/jwt";
import { getAuthSecret } from "./secret";

export const SESSION_COOKIE_NAMES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

export interface SessionUser {
  id: string;
  email: string | null;
  name: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The signed-in user of a `Cookie` header value, or null (no cookie, bad cookie, expired). */
export async function sessionFromCookieHeader(cookie: string | null | undefined): Promise<SessionUser | null> {
  // Resolved first, cookie or not: in production without AUTH_SECRET every request fails loudly
  // (lib/auth/secret.ts) instead of half the app running signed-out.
  const secret = getAuthSecret();
  if (!cookie) return null;
  // Only the cookie is handed over: getToken would otherwise also accept an Authorization header.
  const req = { headers: { cookie } };
  for (const cookieName of SESSION_COOKIE_NAMES) {
    const token = await getToken({
      req,
      secret,
      cookieName,
      salt: cookieName,
      secureCookie: cookieName.startsWith("__Secure-"),
    });
    if (token && typeof token.sub === "string" && UUID.test(token.sub)) {
      return {
        id: token.sub.toLowerCase(),
        email: typeof token.email === "string" ? token.email : null,
        name: typeof token.name === "string" ? token.name : null,
      };
    }
  }
  return null;
}

export function getRequestSession(request: Request): Promise<SessionUser | null> {
  return sessionFromCookieHeader(request.headers.get("cookie"));
}
