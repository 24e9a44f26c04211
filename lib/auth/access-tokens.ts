/**
 * Personal access tokens: the secret a user gives another program (an MCP client, a script) to act
 * on their memory without their password or session cookie.
 *
 * A secret is `llt_` followed by 32 random bytes in base64url (43 characters): 256 bits, so a
 * single unsalted SHA-256 is a safe way to store it (db/schema.ts `access_tokens.token_hash`); the
 * prefix lets secret scanners and people recognise it. It is shown once, when created.
 *
 * It travels as `Authorization: Bearer llt_…` and opens only the routes that declare a `bearer`
 * scope in lib/api/route.ts: `read` tokens the read routes, `read+write` tokens also the memory
 * writes. Account and token management never accept one. A token ends when revoked, when it
 * expires, or when the account's sessions are ended (a password change or "end all sessions":
 * db/queries/access-tokens.ts compares the session version it was created under).
 */
import { createHash, randomBytes } from "node:crypto";
import type { AccessTokenScope } from "@/db/schema";

export const ACCESS_TOKEN_PREFIX = "llt_";
const SECRET_BYTES = 32;
const SECRET_PATTERN = /^llt_[A-Za-z0-9_-]{43}$/;

export function newAccessTokenSecret(): string {
  return `${ACCESS_TOKEN_PREFIX}${randomBytes(SECRET_BYTES).toString("base64url")}`;
}

/** What is stored of a secret: its hex SHA-256. */
export function hashAccessToken(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Whether a string has the shape of a secret (checked before any database look-up). */
export function isAccessTokenSecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}

/**
 * The access token a request attempts: `{ secret }` for `Bearer llt_…` (scheme case-insensitive,
 * RFC 6750), `{ malformed: true }` for a `Bearer llt_…` that is not a well-formed secret (two
 * tokens, a bad character, too short), and null for anything else — no header, or a credential
 * that is not ours: `Basic …` from a basic-auth proxy in front of the app, another service's
 * bearer. Those are no token attempt; the request is judged on its session cookie.
 */
export function bearerOf(request: Request): { secret: string } | { malformed: true } | null {
  const header = request.headers.get("authorization");
  if (header === null || !/^Bearer +llt_/i.test(header)) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1] || !isAccessTokenSecret(match[1])) return { malformed: true };
  return { secret: match[1] };
}

export function scopeAllows(scope: AccessTokenScope, required: "read" | "write"): boolean {
  return required === "read" || scope === "read+write";
}
