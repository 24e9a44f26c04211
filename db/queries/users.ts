/**
 * Users: the account itself. Everything but the sign-in lookup is keyed by the signed-in user's id.
 * Emails are stored lower-cased (unique on lower(email)); callers pass them normalised (lib/validation).
 */
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
  /** IANA time zone of dates and deadlines; null until the browser reported one (UTC meanwhile). */
  timeZone: string | null;
  /** false for accounts that only sign in with Google. */
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

/** Sign-in lookup: the one query by email rather than by owner. */
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

/**
 * Stores a new password hash and bumps the session version in the same statement, which ends every
 * session issued before (lib/auth/revocation.ts). Returns the new session version.
 */
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

/** Ends every session issued so far ("sign out everywhere"); returns the new session version. */
export async function bumpSessionVersion(db: Db, { userId }: { userId: string }): Promise<{ sessionVersion: number }> {
  const [row] = await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ sessionVersion: users.sessionVersion });
  if (!row) throw notFound("user");
  return row;
}

/**
 * Deletes the account. Every table holding the user's data references users.id with ON DELETE
 * CASCADE (db/schema.ts `ownerId()`), so this one statement removes all of it.
 */
export async function deleteUser(db: Db, { userId }: { userId: string }): Promise<void> {
  const [row] = await db.delete(users).where(eq(users.id, userId)).returning({ id: users.id });
  if (!row) throw notFound("user");
}

export interface SessionClaims {
  /** The session's own id (JWT `sid`); absent in sessions issued before revocation existed. */
  sessionId?: string;
  /** The account's session version when the session was issued (JWT `sv`); absent means 0. */
  sessionVersion?: number;
}

/**
 * True when the account exists — a session can outlive its account — and, given a session's
 * claims, that session has not been ended: its version is the account's current one and its id
 * was not signed out. One query; the route wrapper, pages and Auth.js' session endpoint ask it.
 */
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
