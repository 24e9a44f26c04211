/** A recorded session id signs no one in until its JWT would have expired anyway (checked by userExists()). */
import { lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { revokedSessions } from "@/db/schema";

export async function revokeSession(
  db: Db,
  { userId, sessionId, expiresAt }: { userId: string; sessionId: string; expiresAt: Date },
): Promise<void> {
  await db.insert(revokedSessions).values({ userId, sessionId, expiresAt }).onConflictDoNothing();
}

export async function deleteExpiredRevocations(db: Db, { now = new Date() }: { now?: Date } = {}): Promise<number> {
  const rows = await db
    .delete(revokedSessions)
    .where(lt(revokedSessions.expiresAt, now))
    .returning({ id: revokedSessions.sessionId });
  return rows.length;
}
