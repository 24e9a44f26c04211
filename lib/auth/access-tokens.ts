/**
 * 256 random bits, so a single unsalted SHA-256 is a safe way to store a secret; the `llt_` prefix
 * lets secret scanners recognise it. Account and token management never accept one.
 */
import { createHash, randomBytes } from "node:crypto";
import type { AccessTokenScope } from "@/db/schema";

export const ACCESS_TOKEN_PREFIX = "llt_";
const SECRET_BYTES = 32;
const SECRET_PATTERN = /^llt_[A-Za-z0-9_-]{43}$/;

export function newAccessTokenSecret(): string {
  return `${ACCESS_TOKEN_PREFIX}${randomBytes(SECRET_BYTES).toString("base64url")}`;
}

export function hashAccessToken(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Checked before any database look-up. */
export function isAccessTokenSecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}

/** null for a credential that is not ours (a basic-auth proxy's, another service's bearer): judged on its cookie. */
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
