/** Conversations, always of one owner: every query filters by user_id. */
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { type ChatMode, conversations } from "@/db/schema";
import { notFound } from "@/lib/errors";

export type Conversation = typeof conversations.$inferSelect;

export async function createConversation(
  db: Db,
  input: { userId: string; title?: string; mode?: ChatMode; model?: string | null; memoryEnabled?: boolean },
): Promise<Conversation> {
  const [row] = await db
    .insert(conversations)
    .values({
      userId: input.userId,
      title: input.title,
      mode: input.mode,
      model: input.model,
      memoryEnabled: input.memoryEnabled,
    })
    .returning();
  if (!row) throw new Error("insert returned no conversation");
  return row;
}

/** The user's conversation; a missing or foreign id is the same `not_found:conversation`. */
export async function getConversation(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<Conversation> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)))
    .limit(1);
  if (!row) throw notFound("conversation");
  return row;
}

export async function listConversations(
  db: Db,
  { userId, archived = false, limit = 50 }: { userId: string; archived?: boolean; limit?: number },
): Promise<Conversation[]> {
  return db
    .select()
    .from(conversations)
    .where(and(eq(conversations.userId, userId), eq(conversations.archived, archived)))
    .orderBy(desc(conversations.updatedAt))
    .limit(limit);
}
