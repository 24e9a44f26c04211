/** One row per transcription call: what was sent (type and size, never the audio), what came back, how long. */
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

/** Conditional on `message_id IS NULL`: of two sends racing with one transcript, the second is a 409. */
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
