/**
 * conversation_title_jobs: the title outbox (db/schema.ts). A row says the conversation's
 * auto-title is due; it commits with the answer that made it due and is deleted once the title
 * job ran; a run takes it first (claimTitleJob), so one job is never run twice at once. Route-facing writes take the owner's id; the sweep's read spans every user (a
 * server-side sweep, not a user's request) and returns each row's owner.
 */
import { and, asc, eq, lt, lte, sql } from "drizzle-orm";
import { DEFAULT_CONVERSATION_TITLE } from "@/core/config";
import type { Db } from "@/db/client";
import { conversations, conversationTitleJobs } from "@/db/schema";

/** Marks the user's conversation's title due, if it still has the default title; true when a row was written. */
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

/**
 * Takes the conversation's title job for one run: moves its due time `leaseMs` ahead, so neither
 * the after-response run nor a sweep takes it again meanwhile. Only a job due at or before
 * `dueBy` (null: the database's now) is taken; false when there is none, or another run has it.
 * A run that stops without finishing leaves the job for a sweep once the lease has passed.
 */
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
