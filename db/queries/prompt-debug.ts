/** Debug records — what the model received for an assistant message, and why. Owner-scoped. */

import { and, eq } from "drizzle-orm";
import { notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { promptDebug } from "@/db/schema";
import { firstOr } from "./first";
import { lockGoneMemories, redactPromptDebug, traceMemoryIds } from "./redaction";

export type PromptDebug = typeof promptDebug.$inferSelect;
export type NewPromptDebug = typeof promptDebug.$inferInsert;

/**
 * Writes the record of an assistant message (one per message: a second write replaces the first).
 * A memory of its trace that was deleted (or erased) since the turn read it is redacted at once,
 * in the same transaction, which holds the other memories against a delete until it commits: a
 * record written after a delete never brings the deleted text back (db/queries/redaction.ts).
 */
export async function savePromptDebug(db: Db, record: NewPromptDebug): Promise<void> {
  const { messageId: _messageId, userId: _userId, ...changes } = record;
  const upsert = (tx: Db) =>
    tx
      .insert(promptDebug)
      .values(record)
      .onConflictDoUpdate({ target: promptDebug.messageId, set: { ...changes, updatedAt: new Date() } });
  const referenced = traceMemoryIds(record.trace);
  if (referenced.length === 0) {
    await upsert(db);
    return;
  }
  await db.transaction(async (tx) => {
    const gone = await lockGoneMemories(tx, { userId: record.userId, memoryIds: referenced });
    await upsert(tx);
    await redactPromptDebug(tx, { userId: record.userId, memoryIds: gone, messageId: record.messageId });
  });
}

/** The record of the user's assistant message; missing or foreign → `not_found:message`. */
export async function getPromptDebug(
  db: Db,
  { userId, messageId }: { userId: string; messageId: string },
): Promise<PromptDebug> {
  return firstOr(
    db
      .select()
      .from(promptDebug)
      .where(and(eq(promptDebug.messageId, messageId), eq(promptDebug.userId, userId)))
      .limit(1),
    () => notFound("message"),
  );
}
