/**
 * Signed-out sessions (lib/auth/revocation.ts): a session id recorded here no longer signs anyone
 * in, until the JWT it belonged to would have expired anyway. Checked by userExists() (users.ts).
 */
import { lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { revokedSessions } from "@/db/schema";

export async function revokeSession(
  db: Db,
  { userId, sessionId, expiresAt }: { userId: string; sessionId: string; expiresAt: Date },
): Promise<void> {
  await db.insert(revokedSessions).values({ userId, sessionId, expiresAt }).onConflictDoNothing();
}

/** Forgets revocations whose sessions have expired on their own (called now and then). */
export async function deleteExpiredRevocations(db: Db, { now = new Date() }: { now?: Date } = {}): Promise<number> {
  const rows = await db
    .delete(revokedSessions)
    .where(lt(revokedSessions.expiresAt, now))
    .returning({ id: revokedSessions.sessionId });
  return rows.length;
}
