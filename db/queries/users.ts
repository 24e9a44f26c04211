/**
 * Users: the account itself. Everything but the sign-in lookup is keyed by the signed-in user's id.
 * Emails are stored lower-cased (unique on lower(email)); callers pass them normalised (lib/validation).
 */
import { eq, sql } from "drizzle-orm";
import { AppError, notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { isUniqueViolation } from "./errors";

export interface Account {
  id: string;
  email: string;
  name: string | null;
  image: string | null;
  memoryEnabledDefault: boolean;
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
): Promise<{ id: string; email: string; name: string | null; passwordHash: string | null } | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, passwordHash: users.passwordHash })
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
  }: { userId: string; patch: { name?: string | null; email?: string; memoryEnabledDefault?: boolean } },
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

/** The stored bcrypt hash (null for Google-only accounts). */
export async function getPasswordHash(db: Db, { userId }: { userId: string }): Promise<string | null> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw notFound("user");
  return row.hash;
}

export async function setPasswordHash(db: Db, { userId, passwordHash }: { userId: string; passwordHash: string }) {
  const [row] = await db
    .update(users)
    .set({ passwordHash, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  if (!row) throw notFound("user");
}

/** True when the account exists (a session can outlive its account). */
export async function userExists(db: Db, { userId }: { userId: string }): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  return row !== undefined;
}
