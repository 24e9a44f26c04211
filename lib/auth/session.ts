/**
 * THE place a session is read from a request. Not NextAuth's `auth()`: it reads `next/headers`, which
 * exists only inside Next's request scope, not for a plain `Request` in tests.
 *
 * Both cookie names are tried: behind a TLS-terminating proxy the app may see http while the browser
 * holds the secure cookie; each decrypts only under its own name's salt. Whether the session has
 * since been ended is a database question (lib/auth/revocation.ts).
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
    /** Seconds since the epoch, set once at sign-in. */
    authTime?: number;
  };
  token: JWT;
  secureCookie: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const optionalString = (value: unknown) => (typeof value === "string" && value.length <= 200 ? value : undefined);
const optionalInt = (value: unknown) => (Number.isSafeInteger(value) ? (value as number) : undefined);

/** `preferSecure` only orders the attempts. */
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

/** Not yet checked against the database. */
export function decodeRequestSession(request: Request): Promise<DecodedSession | null> {
  const preferSecure = new URL(request.url).protocol === "https:";
  return decodeSessionCookie(request.headers.get("cookie"), { preferSecure });
}

export async function getRequestSession(request: Request): Promise<SessionUser | null> {
  return (await decodeRequestSession(request))?.user ?? null;
}
