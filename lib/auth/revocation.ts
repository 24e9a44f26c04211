/**
 * Ending sessions. Sessions are JWTs in a cookie (lib/auth/session.ts); to end one before it
 * expires, each carries two claims set at sign-in (lib/auth/config.ts, `jwt` callback):
 *
 * - `sv`, the account's `users.session_version` at sign-in. A password change and "sign out
 *   everywhere" bump the version: every session issued before is over. The request that bumped
 *   it gets its own cookie re-issued with the new version, so it alone carries on.
 * - `sid`, a random id of this session. Signing out records it in `revoked_sessions` (until the JWT
 *   would have expired anyway): that cookie is over even if it was copied, other devices are not.
 *
 * Both are checked, in one query with the account's existence (db/queries/users.ts `userExists`),
 * by the route wrapper, by pages (lib/auth/server.ts) and by Auth.js' session endpoint (the `jwt`
 * callback). proxy.ts only decodes (a polite redirect; the page behind it checks).
 */
import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import type { Db } from "@/db/client";
import { deleteExpiredRevocations, revokeSession } from "@/db/queries/sessions";
import { userExists } from "@/db/queries/users";
import { getAuthSecret } from "./secret";
import type { DecodedSession } from "./session";

/** Auth.js' default session lifetime (30 days), which lib/auth/config.ts keeps. */
export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

/** How recent a sign-in must be to delete an account or change its email without a password. */
export const RECENT_SIGN_IN_S = 10 * 60;

/**
 * The cookie Auth.js keeps the session in (its `defaultCookies`, not exported by @auth/core). Only
 * used to write a re-issued cookie; reading goes through Auth.js' getToken. lib/auth/revocation.test.ts
 * checks that getToken reads what we write.
 */
export function sessionCookieName(secure: boolean): string {
  return `${secure ? "__Secure-" : ""}authjs.session-token`;
}

export function newSessionClaims(sessionVersion: number, now = Date.now()) {
  return { sid: randomUUID(), sv: sessionVersion, authTime: Math.floor(now / 1000) };
}

export function isSessionLive(db: Db, session: DecodedSession): Promise<boolean> {
  return userExists(db, { userId: session.user.id, session: session.claims });
}

/** Records a session token as signed out (no-op for tokens issued before session ids existed). */
export async function endSession(db: Db, token: { sub?: unknown; sid?: unknown; exp?: unknown }): Promise<void> {
  if (typeof token.sub !== "string" || typeof token.sid !== "string") return;
  const exp = typeof token.exp === "number" ? token.exp * 1000 : Date.now() + SESSION_MAX_AGE_S * 1000;
  await revokeSession(db, { userId: token.sub.toLowerCase(), sessionId: token.sid, expiresAt: new Date(exp) });
  // Now and then, forget revocations of sessions that have expired on their own.
  if (++signOuts % 50 === 0) await deleteExpiredRevocations(db);
}

let signOuts = 0;

export function signedInRecently(session: DecodedSession, now = Date.now()): boolean {
  const { authTime } = session.claims;
  return authTime !== undefined && now / 1000 - authTime <= RECENT_SIGN_IN_S && authTime <= now / 1000 + 60;
}

function cookieAttributes(secure: boolean, expires: Date): string {
  return `Path=/; Expires=${expires.toUTCString()}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * A `Set-Cookie` value that replaces the request's session cookie with the same session at a new
 * session version, encoded by Auth.js' `encode` exactly as Auth.js would (same cookie, salt, lifetime).
 */
export async function reissuedSessionCookie(session: DecodedSession, sessionVersion: number): Promise<string> {
  const name = sessionCookieName(session.secureCookie);
  const { iat: _iat, exp: _exp, jti: _jti, ...claims } = session.token;
  const value = await encode({
    token: { ...claims, sv: sessionVersion },
    secret: getAuthSecret(),
    salt: name,
    maxAge: SESSION_MAX_AGE_S,
  });
  return `${name}=${value}; ${cookieAttributes(session.secureCookie, new Date(Date.now() + SESSION_MAX_AGE_S * 1000))}`;
}

export function clearedSessionCookies(): string[] {
  return [false, true].map(
    (secure) => `${sessionCookieName(secure)}=; ${cookieAttributes(secure, new Date(0))}; Max-Age=0`,
  );
}
