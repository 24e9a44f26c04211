import { and, asc, eq, sql } from "drizzle-orm";
import { notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { messageNotes, messages } from "@/db/schema";
import { firstOr } from "./first";
import { assertNotImported } from "./imports";
import { getMessage } from "./messages";

export interface Note {
  id: string;
  messageId: string;
  content: string;
  createdAt: Date;
  updatedAt: Date;
}

const noteColumns = {
  id: messageNotes.id,
  messageId: messageNotes.messageId,
  content: messageNotes.content,
  createdAt: messageNotes.createdAt,
  updatedAt: messageNotes.updatedAt,
};

export async function listNotes(db: Db, { userId, messageId }: { userId: string; messageId: string }): Promise<Note[]> {
  await getMessage(db, { userId, messageId });
  return db
    .select(noteColumns)
    .from(messageNotes)
    .where(and(eq(messageNotes.messageId, messageId), eq(messageNotes.userId, userId)))
    .orderBy(asc(messageNotes.createdAt), asc(messageNotes.id));
}

/**
 * The insert selects from the message filtered by owner, so a foreign message id writes nothing
 * (`not_found:message`); a message of an imported conversation takes no note (409 conflict:imported_conversation).
 */
export async function createNote(
  db: Db,
  { userId, messageId, content }: { userId: string; messageId: string; content: string },
): Promise<Note> {
  const message = await getMessage(db, { userId, messageId });
  await assertNotImported(db, { userId, conversationId: message.conversationId, action: "note" });
  return firstOr(
    db
      .insert(messageNotes)
      .select(
        db
          .select({
            id: sql`gen_random_uuid()`.as("id"),
            userId: messages.userId,
            messageId: messages.id,
            content: sql`${content}`.as("content"),
            createdAt: sql`now()`.as("created_at"),
            updatedAt: sql`now()`.as("updated_at"),
          })
          .from(messages)
          .where(and(eq(messages.id, messageId), eq(messages.userId, userId))),
      )
      .returning(noteColumns),
    () => notFound("message"),
  );
}

export async function deleteNote(db: Db, { userId, noteId }: { userId: string; noteId: string }): Promise<void> {
  const [row] = await db
    .delete(messageNotes)
    .where(and(eq(messageNotes.id, noteId), eq(messageNotes.userId, userId)))
    .returning({ id: messageNotes.id });
  if (!row) throw notFound("note");
}
