import { and, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { AppError, badRequest, notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { type AnswerRating, answerRatings, conversations, messages } from "@/db/schema";
import { firstOr } from "./first";
import { assertNotImported } from "./imports";
import { getMessage } from "./messages";

export interface Rating {
  messageId: string;
  rating: AnswerRating;
  reason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const ratingColumns = {
  messageId: answerRatings.messageId,
  rating: answerRatings.rating,
  reason: answerRatings.reason,
  createdAt: answerRatings.createdAt,
  updatedAt: answerRatings.updatedAt,
};

export async function getRating(
  db: Db,
  { userId, messageId }: { userId: string; messageId: string },
): Promise<Rating | null> {
  await getMessage(db, { userId, messageId });
  return storedRating(db, { userId, messageId });
}

/** The caller has already checked the message is the user's. */
export async function storedRating(
  db: Db,
  { userId, messageId }: { userId: string; messageId: string },
): Promise<Rating | null> {
  const [row] = await db
    .select(ratingColumns)
    .from(answerRatings)
    .where(and(eq(answerRatings.messageId, messageId), eq(answerRatings.userId, userId)));
  return row ?? null;
}

/**
 * A question is not an answer (400), an answer still streaming has nothing to judge yet (409), and an imported
 * answer is another assistant's (409 conflict:imported_conversation).
 */
export async function rateAnswer(
  db: Db,
  {
    userId,
    messageId,
    rating,
    reason,
  }: { userId: string; messageId: string; rating: AnswerRating; reason: string | null },
): Promise<Rating> {
  const message = await getMessage(db, { userId, messageId });
  if (message.role !== "assistant") throw badRequest({ "params.id": "Only answers can be rated" });
  if (message.status === "streaming") throw new AppError("conflict:streaming", "The answer is still being written");
  await assertNotImported(db, { userId, conversationId: message.conversationId, action: "rating" });
  return firstOr(
    db
      .insert(answerRatings)
      .values({ messageId, userId, rating, reason })
      .onConflictDoUpdate({
        target: answerRatings.messageId,
        set: { rating, reason, updatedAt: sql`now()` },
        setWhere: eq(answerRatings.userId, userId),
      })
      .returning(ratingColumns),
    () => notFound("message"),
  );
}

export async function clearRating(db: Db, { userId, messageId }: { userId: string; messageId: string }): Promise<void> {
  await getMessage(db, { userId, messageId });
  await db.delete(answerRatings).where(and(eq(answerRatings.messageId, messageId), eq(answerRatings.userId, userId)));
}

export interface RatedAnswer extends Rating {
  conversationId: string;
  conversationTitle: string;
  /** Null once the question is gone. */
  question: string | null;
  excerpt: string;
  answeredAt: Date;
}

const EXCERPT_CHARS = 240;

export async function listRatedAnswers(
  db: Db,
  { userId, rating, limit = 100 }: { userId: string; rating?: AnswerRating; limit?: number },
): Promise<RatedAnswer[]> {
  const questions = alias(messages, "question");
  return db
    .select({
      ...ratingColumns,
      conversationId: messages.conversationId,
      conversationTitle: conversations.title,
      question: sql<string | null>`left(${questions.content}, ${EXCERPT_CHARS})`,
      excerpt: sql<string>`left(${messages.content}, ${EXCERPT_CHARS})`,
      answeredAt: messages.createdAt,
    })
    .from(answerRatings)
    .innerJoin(messages, and(eq(messages.id, answerRatings.messageId), eq(messages.userId, userId)))
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoin(
      questions,
      and(eq(questions.id, messages.parentMessageId), eq(questions.userId, userId), eq(questions.role, "user")),
    )
    .where(and(eq(answerRatings.userId, userId), rating ? eq(answerRatings.rating, rating) : undefined))
    .orderBy(desc(answerRatings.updatedAt), desc(answerRatings.messageId))
    .limit(limit);
}
