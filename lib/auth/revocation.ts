/**
 * A JWT cannot be recalled, so each carries `sv` (bumped by a password change or "sign out
 * everywhere"; the bumping request gets its cookie re-issued) and `sid` (recorded in
 * revoked_sessions on sign-out, so a copied cookie is over too). proxy.ts only decodes: the page
 * behind its redirect checks.
 */
import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import type { Db } from "@/db/client";
import { deleteExpiredRevocations, revokeSession } from "@/db/queries/sessions";
import { userExists } from "@/db/queries/users";
import { getAuthSecret } from "./secret";
import type { DecodedSession } from "./session";

export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

export const RECENT_SIGN_IN_S = 10 * 60;

/** Auth.js does not export its `defaultCookies`; lib/auth/revocation.test.ts checks getToken reads what we write. */
export function sessionCookieName(secure: boolean): string {
  return `${secure ? "__Secure-" : ""}authjs.session-token`;
}

export function newSessionClaims(sessionVersion: number, now = Date.now()) {
  return { sid: randomUUID(), sv: sessionVersion, authTime: Math.floor(now / 1000) };
}

export function isSessionLive(db: Db, session: DecodedSession): Promise<boolean> {
  return userExists(db, { userId: session.user.id, session: session.claims });
}

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
