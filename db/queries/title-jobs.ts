/** The sweep's read spans every user (a server-side sweep, not a request) and returns each row's owner. */
import { and, asc, eq, lt, lte, sql } from "drizzle-orm";
import { DEFAULT_CONVERSATION_TITLE } from "@/core/config";
import type { Db } from "@/db/client";
import { conversations, conversationTitleJobs } from "@/db/schema";

/** True when a row was written (the conversation still had the default title). */
export async function markTitleDue(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<boolean> {
  const rows = await db
    .insert(conversationTitleJobs)
    .select(
      db
        .select({ conversationId: conversations.id, userId: conversations.userId, dueAt: sql`now()`.as("due_at") })
        .from(conversations)
        .where(
          and(
            eq(conversations.id, conversationId),
            eq(conversations.userId, userId),
            eq(conversations.title, DEFAULT_CONVERSATION_TITLE),
          ),
        ),
    )
    .onConflictDoNothing({ target: conversationTitleJobs.conversationId })
    .returning({ conversationId: conversationTitleJobs.conversationId });
  return rows.length > 0;
}

/** Moves the due time `leaseMs` ahead so no other run takes it meanwhile; a stopped run leaves it to a later sweep. */
export async function claimTitleJob(
  db: Db,
  {
    userId,
    conversationId,
    dueBy,
    leaseMs,
  }: { userId: string; conversationId: string; dueBy: Date | null; leaseMs: number },
): Promise<boolean> {
  const rows = await db
    .update(conversationTitleJobs)
    .set({ dueAt: sql`now() + ${leaseMs} * interval '1 millisecond'` })
    .where(
      and(
        eq(conversationTitleJobs.conversationId, conversationId),
        eq(conversationTitleJobs.userId, userId),
        dueBy ? lte(conversationTitleJobs.dueAt, dueBy) : sql`${conversationTitleJobs.dueAt} <= now()`,
      ),
    )
    .returning({ conversationId: conversationTitleJobs.conversationId });
  return rows.length > 0;
}

export async function finishTitleJob(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<void> {
  await db
    .delete(conversationTitleJobs)
    .where(and(eq(conversationTitleJobs.conversationId, conversationId), eq(conversationTitleJobs.userId, userId)));
}

export async function listStaleTitleJobs(
  db: Db,
  { before, limit }: { before: Date; limit: number },
): Promise<{ conversationId: string; userId: string }[]> {
  return db
    .select({ conversationId: conversationTitleJobs.conversationId, userId: conversationTitleJobs.userId })
    .from(conversationTitleJobs)
    .where(lt(conversationTitleJobs.dueAt, before))
    .orderBy(asc(conversationTitleJobs.dueAt))
    .limit(limit);
}
