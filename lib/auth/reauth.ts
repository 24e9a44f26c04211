/**
 * The password check is rate-limited so a stolen session cannot brute-force it. Without a password,
 * a recent sign-in by `authTime`: Auth.js' `iat` moves on every refresh, so it cannot tell.
 */
import { AppError, badRequest, userGoneAsUnauthorized } from "@/core/errors";
import type { Db } from "@/db/client";
import { getPasswordHash } from "@/db/queries/users";
import { getRateLimiter } from "@/lib/limits/rate-limit";
import { PasswordHashingBusy, verifyPassword } from "./password";
import { RECENT_SIGN_IN_S, signedInRecently } from "./revocation";
import { decodeRequestSession } from "./session";

export function hashingBusyAsRateLimited(error: unknown): never {
  if (error instanceof PasswordHashingBusy) {
    throw new AppError("rate_limited", "The server is busy checking passwords — try again in a few seconds", {
      retryAfter: error.retryAfterSeconds,
    });
  }
  throw error;
}

export async function checkCurrentPassword(
  db: Db,
  {
    userId,
    hash,
    password,
    field,
  }: {
    userId: string;
    hash: string;
    password: string;
    field: string;
  },
): Promise<void> {
  const limiter = getRateLimiter("signin");
  const key = `user:${userId}`;
  const decision = await limiter?.take(db, key);
  if (decision && !decision.ok) {
    throw new AppError("rate_limited", "Too many wrong passwords — try again later", {
      retryAfter: decision.retryAfterSeconds,
    });
  }
  const ok = await verifyPassword(password, hash).catch(async (error) => {
    await limiter?.refund(db, key);
    return hashingBusyAsRateLimited(error);
  });
  if (!ok) throw badRequest({ [field]: "Current password is incorrect" });
  await limiter?.reset(db, key);
}

export async function confirmAccountHolder(
  db: Db,
  {
    userId,
    request,
    currentPassword,
    field = "body.currentPassword",
  }: { userId: string; request: Request; currentPassword: string | undefined; field?: string },
): Promise<void> {
  const hash = await getPasswordHash(db, { userId }).catch(userGoneAsUnauthorized);
  if (hash) {
    if (currentPassword === undefined) throw badRequest({ [field]: "Enter your current password to confirm" });
    await checkCurrentPassword(db, { userId, hash, password: currentPassword, field });
    return;
  }
  const session = await decodeRequestSession(request);
  if (!session || !signedInRecently(session)) {
    throw new AppError(
      "forbidden:reauthenticate",
      `Sign in again to confirm it is you (this needs a sign-in within the last ${RECENT_SIGN_IN_S / 60} minutes)`,
    );
  }
}
