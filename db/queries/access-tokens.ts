/** Only a secret's hash is stored or compared. */
import { and, count, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { AppError, notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { type AccessTokenScope, accessTokens, users } from "@/db/schema";

export interface AccessToken {
  id: string;
  name: string;
  scope: AccessTokenScope;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  /** ended: the account's sessions were ended after it was created. */
  state: "active" | "expired" | "ended";
}

const storedColumns = {
  id: accessTokens.id,
  name: accessTokens.name,
  scope: accessTokens.scope,
  createdAt: accessTokens.createdAt,
  lastUsedAt: accessTokens.lastUsedAt,
  expiresAt: accessTokens.expiresAt,
};

const tokenColumns = {
  ...storedColumns,
  state: sql<AccessToken["state"]>`CASE
    WHEN ${accessTokens.sessionVersion} <> ${users.sessionVersion} THEN 'ended'
    WHEN ${accessTokens.expiresAt} IS NOT NULL AND ${accessTokens.expiresAt} <= now() THEN 'expired'
    ELSE 'active' END`.as("state"),
};

export async function listAccessTokens(db: Db, { userId }: { userId: string }): Promise<AccessToken[]> {
  return db
    .select(tokenColumns)
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)))
    .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id));
}

/** 409 conflict:access_token_limit past `maxPerUser` unrevoked tokens. */
export async function createAccessToken(
  db: Db,
  {
    userId,
    name,
    scope,
    tokenHash,
    expiresAt,
    maxPerUser,
  }: {
    userId: string;
    name: string;
    scope: AccessTokenScope;
    tokenHash: string;
    expiresAt: Date | null;
    maxPerUser: number;
  },
): Promise<AccessToken> {
  return db.transaction(async (tx) => {
    // Lock the account row so concurrent creations count one after the other.
    const [account] = await tx
      .select({ sessionVersion: users.sessionVersion })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!account) throw notFound("user");
    const [held] = await tx
      .select({ n: count() })
      .from(accessTokens)
      .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)));
    if ((held?.n ?? 0) >= maxPerUser) {
      throw new AppError(
        "conflict:access_token_limit",
        `You already have ${maxPerUser} access tokens — revoke one you no longer use first`,
      );
    }
    const [row] = await tx
      .insert(accessTokens)
      .values({ userId, name, scope, tokenHash, expiresAt, sessionVersion: account.sessionVersion })
      .returning(storedColumns);
    if (!row) throw new Error("access token: no row returned");
    return { ...row, state: "active" as const };
  });
}

export async function revokeAccessToken(db: Db, { userId, tokenId }: { userId: string; tokenId: string }) {
  const [row] = await db
    .update(accessTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(accessTokens.id, tokenId), eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)))
    .returning({ id: accessTokens.id });
  if (!row) throw notFound("access_token");
}

export async function findLiveAccessToken(
  db: Db,
  { tokenHash }: { tokenHash: string },
): Promise<{ id: string; userId: string; name: string; scope: AccessTokenScope } | null> {
  const [row] = await db
    .select({ id: accessTokens.id, userId: accessTokens.userId, name: accessTokens.name, scope: accessTokens.scope })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(
      and(
        eq(accessTokens.tokenHash, tokenHash),
        isNull(accessTokens.revokedAt),
        eq(accessTokens.sessionVersion, users.sessionVersion),
        or(isNull(accessTokens.expiresAt), gt(accessTokens.expiresAt, sql`now()`)),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function touchAccessToken(db: Db, { tokenId }: { tokenId: string }): Promise<void> {
  await db.update(accessTokens).set({ lastUsedAt: sql`now()` }).where(eq(accessTokens.id, tokenId));
}
