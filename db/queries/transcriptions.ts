/**
 * Transcriptions of dictated audio: one row per call to the transcription model (what was sent —
 * type and size, never the audio — what came back, and how long it took). Owner-scoped: another
 * user's transcription is the same 404 as a missing one.
 */
import { and, eq } from "drizzle-orm";
import { notFound } from "@/core/errors";
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

export async function linkTranscription(
  db: Db,
  { userId, transcriptionId, messageId }: { userId: string; transcriptionId: string; messageId: string },
): Promise<void> {
  await db
    .update(transcriptions)
    .set({ messageId })
    .where(and(eq(transcriptions.id, transcriptionId), eq(transcriptions.userId, userId)));
}
