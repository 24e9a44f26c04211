import { randomUUID } from "node:crypto";
import { and, asc, eq, getTableColumns, sql } from "drizzle-orm";
import { notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { conversations, gmailOperations, type MessageNotice, type MessageStatus, messages } from "@/db/schema";
import { getConversation } from "./conversations";
import { firstOr } from "./first";

/** Without the internal columns: the chat-search vector and the history budget's token count. */
export type Message = Omit<typeof messages.$inferSelect, "searchVector" | "contentTokens">;

export type BranchMessage = Message & { contentTokens: number | null };

const { searchVector: _searchVector, contentTokens: _contentTokens, ...columns } = getTableColumns(messages);
export const messageColumns = columns;

export interface NewMessage {
  role: Message["role"];
  content: string;
  parts?: unknown[];
  model?: string | null;
  status?: MessageStatus;
  /** Left out, a turn counts them when it reads the message. */
  contentTokens?: number | null;
}

/** Where the shown branch ends: the current message, else the newest (lib/chat/branch.ts). */
const currentOfConversation = sql`coalesce(${conversations.currentMessageId}, (
  SELECT m.id FROM ${messages} m WHERE m.conversation_id = ${conversations.id} ORDER BY m.created_at DESC LIMIT 1))`;

/**
 * Adds messages as a chain: the first follows `parentMessageId` (null: a first message; left out: the current
 * message), the last becomes current. `created_at` is the statement's time plus each one's position in
 * microseconds, so they sort as given. The parent is checked inside `inConversation`'s lock, so one deleted
 * meanwhile is a `not_found:message` too.
 */
export async function createMessages(
  db: Db,
  input: { userId: string; conversationId: string; parentMessageId?: string | null; messages: readonly NewMessage[] },
): Promise<Message[]> {
  return inConversation(db, input, async (tx) => {
    if (input.parentMessageId) await getMessageOf(tx, { ...input, messageId: input.parentMessageId });
    return insertMessages(tx, input);
  });
}

async function insertMessages(
  db: Db,
  input: { userId: string; conversationId: string; parentMessageId?: string | null; messages: readonly NewMessage[] },
): Promise<Message[]> {
  const ids: string[] = input.messages.map(() => randomUUID());
  const firstParent = input.parentMessageId === undefined ? currentOfConversation : sql`${input.parentMessageId}::uuid`;
  const rows = input.messages.map(
    (message, position) =>
      // Wrapped in sql: drizzle's field check counts the generated search_vector column, which an insert must not name.
      sql`${db
        .select({
          id: sql`${ids[position]}::uuid`.as("id"),
          userId: conversations.userId,
          conversationId: conversations.id,
          parentMessageId: (position === 0 ? firstParent : sql`${ids[position - 1]}::uuid`).as("parent_message_id"),
          role: sql`${message.role}::message_role`.as("role"),
          content: sql`${message.content}`.as("content"),
          contentTokens: sql`${message.contentTokens ?? null}::integer`.as("content_tokens"),
          parts: sql`${JSON.stringify(message.parts ?? [])}::jsonb`.as("parts"),
          model: sql`${message.model ?? null}::text`.as("model"),
          status: sql`${message.status ?? "complete"}::message_status`.as("status"),
          error: sql`NULL::text`.as("error"),
          notice: sql`NULL::text`.as("notice"),
          sourceId: sql`NULL::text`.as("source_id"),
          contentHash: sql`NULL::text`.as("content_hash"),
          createdAt: sql`now() + ${position} * interval '1 microsecond'`.as("created_at"),
          updatedAt: sql`now()`.as("updated_at"),
        })
        .from(conversations)
        .where(and(eq(conversations.id, input.conversationId), eq(conversations.userId, input.userId)))}`,
  );
  const inserted = await db.insert(messages).select(sql.join(rows, sql` UNION ALL `)).returning(messageColumns);
  if (inserted.length === 0) throw notFound("conversation");
  await setCurrentMessage(db, {
    userId: input.userId,
    conversationId: input.conversationId,
    messageId: ids.at(-1),
    touch: true,
  });
  return inserted.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
}

export async function createMessage(
  db: Db,
  input: { userId: string; conversationId: string } & NewMessage,
): Promise<Message> {
  const { userId, conversationId, ...message } = input;
  return firstOr(createMessages(db, { userId, conversationId, messages: [message] }), () => notFound("conversation"));
}

/** A missing or foreign id is the same `not_found:message`. */
export async function getMessage(
  db: Db,
  { userId, messageId }: { userId: string; messageId: string },
): Promise<Message> {
  return firstOr(
    db
      .select(messageColumns)
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.userId, userId)))
      .limit(1),
    () => notFound("message"),
  );
}

export async function getMessageOf(
  db: Db,
  { userId, conversationId, messageId }: { userId: string; conversationId: string; messageId: string },
): Promise<Message> {
  return firstOr(
    db
      .select(messageColumns)
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversationId), eq(messages.userId, userId)))
      .limit(1),
    () => notFound("message"),
  );
}

export async function listMessages(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<Message[]> {
  await getConversation(db, { userId, conversationId });
  return db
    .select(messageColumns)
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.userId, userId)))
    .orderBy(asc(messages.createdAt));
}

/**
 * The last `limit` messages of the path down to `throughId` (or the current message), oldest first: one recursive
 * read up the parent links. A `throughId` of another conversation or user → [].
 */
export async function listBranch(
  db: Db,
  {
    userId,
    conversationId,
    throughId,
    limit,
  }: { userId: string; conversationId: string; throughId?: string; limit: number },
): Promise<BranchMessage[]> {
  const start =
    throughId === undefined
      ? sql`(SELECT ${currentOfConversation} FROM ${conversations}
              WHERE ${conversations.id} = ${conversationId}::uuid AND ${conversations.userId} = ${userId}::uuid)`
      : sql`${throughId}::uuid`;
  const branchIds = sql`WITH RECURSIVE branch(id, parent, depth) AS (
      SELECT m.id, m.parent_message_id, 1 FROM ${messages} m
        WHERE m.id = ${start} AND m.conversation_id = ${conversationId}::uuid AND m.user_id = ${userId}::uuid
      UNION ALL
      SELECT m.id, m.parent_message_id, b.depth + 1 FROM ${messages} m JOIN branch b ON m.id = b.parent
        WHERE b.depth < ${limit} AND m.user_id = ${userId}::uuid
    ) SELECT id FROM branch`;
  // A message is always created after its parent: creation order is the path's order.
  return db
    .select({ ...messageColumns, contentTokens: messages.contentTokens })
    .from(messages)
    .where(and(eq(messages.userId, userId), sql`${messages.id} IN (${branchIds})`))
    .orderBy(asc(messages.createdAt));
}

export async function listMessageTree(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<
  { id: string; parentMessageId: string | null; role: Message["role"]; status: MessageStatus; createdAt: Date }[]
> {
  return db
    .select({
      id: messages.id,
      parentMessageId: messages.parentMessageId,
      role: messages.role,
      status: messages.status,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.userId, userId)))
    .orderBy(asc(messages.createdAt));
}

/** The caller vouches `messageId` belongs to this conversation; `touch` also bumps updated_at in the same write. */
export async function setCurrentMessage(
  db: Db,
  {
    userId,
    conversationId,
    messageId,
    touch = false,
  }: { userId: string; conversationId: string; messageId: string | undefined | null; touch?: boolean },
): Promise<void> {
  await db
    .update(conversations)
    .set({ currentMessageId: messageId ?? null, ...(touch ? { updatedAt: new Date() } : {}) })
    .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)));
}

/** False when the answer is no longer streaming: the interrupted-answer sweep settled it first, and a late finish must not overwrite that. */
export async function finishMessage(
  db: Db,
  input: {
    userId: string;
    messageId: string;
    content: string;
    parts: unknown[];
    status: Exclude<MessageStatus, "streaming">;
    error: string | null;
    notice?: MessageNotice | null;
    contentTokens?: number | null;
  },
): Promise<boolean> {
  const rows = await db
    .update(messages)
    .set({
      content: input.content,
      contentTokens: input.contentTokens ?? null,
      parts: input.parts,
      status: input.status,
      error: input.error,
      notice: input.notice ?? null,
      updatedAt: new Date(),
    })
    .where(and(eq(messages.id, input.messageId), eq(messages.userId, input.userId), eq(messages.status, "streaming")))
    .returning({ id: messages.id });
  if (rows.length > 0) return true;
  await getMessage(db, { userId: input.userId, messageId: input.messageId });
  return false;
}

/** A later finish wins: nothing is written once the answer is not `streaming`. */
export async function saveAnswerProgress(
  db: Db,
  input: { userId: string; messageId: string; content: string },
): Promise<void> {
  await db
    .update(messages)
    .set({ content: input.content, contentTokens: null, updatedAt: new Date() })
    .where(and(eq(messages.id, input.messageId), eq(messages.userId, input.userId), eq(messages.status, "streaming")));
}

function isDeadlock(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "40P01") return true;
  }
  return false;
}

function messageAndBelow(userId: string, messageId: string) {
  return sql`WITH RECURSIVE below(id) AS (
      SELECT m.id FROM ${messages} m WHERE m.id = ${messageId}::uuid AND m.user_id = ${userId}::uuid
      UNION ALL
      SELECT m.id FROM ${messages} m JOIN below b ON m.parent_message_id = b.id WHERE m.user_id = ${userId}::uuid
    ) SELECT id FROM below`;
}

/** Pending emails of a replaced or deleted branch can no longer be approved; their cards say why. */
export async function cancelPendingSendsBelow(
  db: Db,
  { userId, messageId, reason }: { userId: string; messageId: string; reason: string },
): Promise<number> {
  const rows = await db
    .update(gmailOperations)
    .set({ status: "cancelled", error: reason, updatedAt: new Date() })
    .where(
      and(
        sql`${gmailOperations.messageId} IN (${messageAndBelow(userId, messageId)})`,
        eq(gmailOperations.userId, userId),
        eq(gmailOperations.status, "pending_confirmation"),
      ),
    )
    .returning({ id: gmailOperations.id });
  return rows.length;
}

/**
 * Deletes the message and everything below it (the parent link cascades); memories extracted from them stay,
 * their source cleared. Call inside `inConversation`, which makes it whole or nothing.
 */
export async function deleteMessage(db: Db, { userId, messageId }: { userId: string; messageId: string }) {
  await cancelPendingSendsBelow(db, { userId, messageId, reason: "its answer was deleted" });
  const rows = await db
    .delete(messages)
    .where(and(eq(messages.id, messageId), eq(messages.userId, userId)))
    .returning({ id: messages.id });
  if (rows.length === 0) throw notFound("message");
}

/**
 * Every change to a conversation's messages runs under its row lock, so each reads the tree as the one before
 * left it. `FOR NO KEY UPDATE` leaves the key free for rows that only reference the conversation.
 */
export async function inConversation<T>(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
  work: (tx: Db) => Promise<T>,
): Promise<T> {
  const attempt = () =>
    db.transaction(async (tx) => {
      await firstOr(
        tx
          .select({ id: conversations.id })
          .from(conversations)
          .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)))
          .for("no key update"),
        () => notFound("conversation"),
      );
      return work(tx);
    });
  // A cascading delete can deadlock with a job holding the pair's extraction; the transaction is whole, so retry it.
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= 3 || !isDeadlock(error)) throw error;
    }
  }
}
