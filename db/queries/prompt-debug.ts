/** Debug records — what the model received for an assistant message, and why. Owner-scoped. */
import { and, eq } from "drizzle-orm";
import { notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { promptDebug } from "@/db/schema";

export type PromptDebug = typeof promptDebug.$inferSelect;
export type NewPromptDebug = typeof promptDebug.$inferInsert;

/** Writes the record of an assistant message (one per message: a second write replaces the first). */
export async function savePromptDebug(db: Db, record: NewPromptDebug): Promise<void> {
  const { messageId: _messageId, userId: _userId, ...changes } = record;
  await db
    .insert(promptDebug)
    .values(record)
    .onConflictDoUpdate({ target: promptDebug.messageId, set: { ...changes, updatedAt: new Date() } });
}

/** The record of the user's assistant message; missing or foreign → `not_found:message`. */
export async function getPromptDebug(
  db: Db,
  { userId, messageId }: { userId: string; messageId: string },
): Promise<PromptDebug> {
  const [row] = await db
    .select()
    .from(promptDebug)
    .where(and(eq(promptDebug.messageId, messageId), eq(promptDebug.userId, userId)))
    .limit(1);
  if (!row) throw notFound("message");
  return row;
}
