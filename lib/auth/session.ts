/**
 * THE place a session is read from a request: the Auth.js session cookie, decoded by Auth.js' own
 * `getToken` (next-auth/jwt), which picks the cookie name and the key-derivation salt the way
 * Auth.js writes them: `__Secure-authjs.session-token` when the cookie is secure (https),
 * `authjs.session-token` otherwise, each salted with its own name. The route wrapper, proxy.ts and
 * server components (lib/auth/server.ts) all come here.
 *
 * Why not NextAuth's `auth()`: without arguments it reads `next/headers`, which only exists inside
 * Next's request scope; route handlers mounted in tests (and any other caller holding a plain
 * `Request`) have none. Decoding the cookie needs nothing but the request.
 *
 * Both variants are tried (the one matching the request's protocol first): behind a proxy that
 * terminates TLS the app may see http while the browser holds the secure cookie. A cookie only
 * decrypts under its own name's salt, so one cannot stand in for the other. Bearer tokens are not
 * accepted: only the cookie is handed to getToken.
 *
 * This decodes; whether the session has since been ended (signed out, password changed, account
 * deleted) is a database question — lib/auth/revocation.ts.
 */
import { getToken, type JWT } from "next-auth/jwt";
import type { SessionClaims } from "@/db/queries/users";
import { getAuthSecret } from "./secret";

export interface SessionUser {
  id: string;
  email: string | null;
  name: string | null;
}

export interface DecodedSession {
  user: SessionUser;
  claims: SessionClaims & {
    /** When the user signed in (seconds since the epoch; JWT `authTime`, set once at sign-in). */
    authTime?: number;
  };
  /** The whole token, for re-issuing it (lib/auth/revocation.ts). */
  token: JWT;
  secureCookie: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const optionalString = (value: unknown) => (typeof value === "string" && value.length <= 200 ? value : undefined);
const optionalInt = (value: unknown) => (Number.isSafeInteger(value) ? (value as number) : undefined);

/**
 * The session of a `Cookie` header value, or null (no cookie, bad cookie, expired). `preferSecure`
 * only orders the attempts (true for https requests).
 */
export async function decodeSessionCookie(
  cookie: string | null | undefined,
  { preferSecure = false }: { preferSecure?: boolean } = {},
): Promise<DecodedSession | null> {
  // Resolved first, cookie or not: in production without AUTH_SECRET every request fails loudly
  // (lib/auth/secret.ts) instead of half the app running signed-out.
  const secret = getAuthSecret();
  if (!cookie) return null;
  // Only the cookie is handed over: getToken would otherwise also accept an Authorization header.
  const req = { headers: { cookie } };
  for (const secureCookie of preferSecure ? [true, false] : [false, true]) {
    const token = await getToken({ req, secret, secureCookie });
    if (token && typeof token.sub === "string" && UUID.test(token.sub)) {
      return {
        user: {
          id: token.sub.toLowerCase(),
          email: typeof token.email === "string" ? token.email : null,
          name: typeof token.name === "string" ? token.name : null,
        },
        claims: {
          sessionId: optionalString(token.sid),
          sessionVersion: optionalInt(token.sv),
          authTime: optionalInt(token.authTime),
        },
        token,
        secureCookie,
      };
    }
  }
  return null;
}

export async function sessionFromCookieHeader(cookie: string | null | undefined): Promise<SessionUser | null> {
  return (await decodeSessionCookie(cookie))?.user ?? null;
}

/** The decoded session of a request (not yet checked against the database). */
export function decodeRequestSession(request: Request): Promise<DecodedSession | null> {
  const preferSecure = new URL(request.url).protocol === "https:";
  return decodeSessionCookie(request.headers.get("cookie"), { preferSecure });
}

export async function getRequestSession(request: Request): Promise<SessionUser | null> {
  return (await decodeRequestSession(request))?.user ?? null;
}
