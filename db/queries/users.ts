/** Emails are stored lower-cased (unique on lower(email)); callers pass them normalised. */
import { and, eq, sql } from "drizzle-orm";
import { AppError, notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { revokedSessions, users } from "@/db/schema";
import { isUniqueViolation } from "./errors";

export interface Account {
  id: string;
  email: string;
  name: string | null;
  image: string | null;
  memoryEnabledDefault: boolean;
  timeZone: string | null;
  /** False for Google-only accounts. */
  hasPassword: boolean;
  createdAt: Date;
}

const accountColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  image: users.image,
  memoryEnabledDefault: users.memoryEnabledDefault,
  timeZone: users.timeZone,
  hasPassword: sql<boolean>`${users.passwordHash} IS NOT NULL`.as("has_password"),
  createdAt: users.createdAt,
};

const emailTaken = () => new AppError("conflict:email", "An account with this email already exists");

export async function createUser(
  db: Db,
  input: { email: string; name: string | null; passwordHash: string | null },
): Promise<Account> {
  const [row] = await db
    .insert(users)
    .values({ email: input.email, name: input.name, passwordHash: input.passwordHash })
    .onConflictDoNothing()
    .returning(accountColumns);
  if (!row) throw emailTaken();
  return row;
}

/** The one query by email rather than by owner. */
export async function findUserForSignIn(
  db: Db,
  { email }: { email: string },
): Promise<{
  id: string;
  email: string;
  name: string | null;
  passwordHash: string | null;
  sessionVersion: number;
} | null> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      passwordHash: users.passwordHash,
      sessionVersion: users.sessionVersion,
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return row ?? null;
}

export async function getAccount(db: Db, { userId }: { userId: string }): Promise<Account> {
  const [row] = await db.select(accountColumns).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw notFound("user");
  return row;
}

export async function updateAccount(
  db: Db,
  {
    userId,
    patch,
  }: {
    userId: string;
    patch: { name?: string | null; email?: string; memoryEnabledDefault?: boolean; timeZone?: string };
  },
): Promise<Account> {
  try {
    const [row] = await db
      .update(users)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning(accountColumns);
    if (!row) throw notFound("user");
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

export async function getPasswordHash(db: Db, { userId }: { userId: string }): Promise<string | null> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw notFound("user");
  return row.hash;
}

/** The same statement bumps the session version, ending every session issued before. */
export async function setPasswordHash(
  db: Db,
  { userId, passwordHash }: { userId: string; passwordHash: string },
): Promise<{ sessionVersion: number }> {
  const [row] = await db
    .update(users)
    .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ sessionVersion: users.sessionVersion });
  if (!row) throw notFound("user");
  return row;
}

/** "Sign out everywhere". */
export async function bumpSessionVersion(db: Db, { userId }: { userId: string }): Promise<{ sessionVersion: number }> {
  const [row] = await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ sessionVersion: users.sessionVersion });
  if (!row) throw notFound("user");
  return row;
}

/** Every owned table cascades from users.id (db/schema.ts `ownerId()`), so this one statement removes it all. */
export async function deleteUser(db: Db, { userId }: { userId: string }): Promise<void> {
  const [row] = await db.delete(users).where(eq(users.id, userId)).returning({ id: users.id });
  if (!row) throw notFound("user");
}

export interface SessionClaims {
  /** JWT `sid`; absent in sessions issued before revocation existed. */
  sessionId?: string;
  /** JWT `sv`; absent means 0. */
  sessionVersion?: number;
}

/** A session can outlive its account, or be ended by version or sign-out: one query checks all three. */
export async function userExists(
  db: Db,
  { userId, session }: { userId: string; session?: SessionClaims },
): Promise<boolean> {
  const revoked = session?.sessionId
    ? sql<boolean>`EXISTS (SELECT 1 FROM ${revokedSessions} WHERE ${and(
        eq(revokedSessions.sessionId, session.sessionId),
        eq(revokedSessions.userId, userId),
      )})`
    : sql<boolean>`false`;
  const [row] = await db
    .select({ sessionVersion: users.sessionVersion, revoked: revoked.as("revoked") })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return false;
  if (!session) return true;
  return row.sessionVersion === (session.sessionVersion ?? 0) && !row.revoked;
}
