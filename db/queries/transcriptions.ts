/**
 * Transcriptions of dictated audio: one row per call to the transcription model (what was sent —
 * type and size, never the audio — what came back, and how long it took). Owner-scoped: another
 * user's transcription is the same 404 as a missing one.
 */
import { and, eq, isNull } from "drizzle-orm";
import { AppError, notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { transcriptions } from "@/db/schema";
import { firstOr } from "./first";

export type Transcription = typeof transcriptions.$inferSelect;
export type NewTranscription = typeof transcriptions.$inferInsert;

export async function createTranscription(db: Db, row: NewTranscription): Promise<Transcription> {
  return firstOr(db.insert(transcriptions).values(row).returning(), () => new Error("transcription not written"));
}

export async function getTranscription(
  db: Db,
  { userId, transcriptionId }: { userId: string; transcriptionId: string },
): Promise<Transcription> {
  return firstOr(
    db
      .select()
      .from(transcriptions)
      .where(and(eq(transcriptions.id, transcriptionId), eq(transcriptions.userId, userId)))
      .limit(1),
    () => notFound("transcription"),
  );
}

/**
 * Links the transcription to the message sent from it, if no message has it yet: a transcript is
 * the record of one message. Conditional on `message_id IS NULL`, so of two sends racing with one
 * transcription only the first to commit gets it; the other is a 409 (in its transaction, which
 * rolls its messages back).
 */
export async function claimTranscription(
  db: Db,
  { userId, transcriptionId, messageId }: { userId: string; transcriptionId: string; messageId: string },
): Promise<void> {
  const claimed = await db
    .update(transcriptions)
    .set({ messageId })
    .where(
      and(eq(transcriptions.id, transcriptionId), eq(transcriptions.userId, userId), isNull(transcriptions.messageId)),
    )
    .returning({ id: transcriptions.id });
  if (claimed.length === 0) throw transcriptionUsed();
}

export function transcriptionUsed(): AppError {
  return new AppError(
    "conflict:transcription_used",
    "This transcript was already sent as a message: dictate again to send another",
  );
}
