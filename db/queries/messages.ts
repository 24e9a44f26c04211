/** Messages, always of one owner: every query filters by user_id. */

import { randomUUID } from "node:crypto";
import { and, asc, eq, getTableColumns, sql } from "drizzle-orm";
import { notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { conversations, gmailOperations, type MessageNotice, type MessageStatus, messages } from "@/db/schema";
import { getConversation } from "./conversations";
import { firstOr } from "./first";

/**
 * A message as the app reads and the API shows it: every column but the internal ones — the
 * full-text search vector (`search_vector`, an index for chat search) and the content's token
 * count (`content_tokens`, the history budget's: listBranch reads it).
 */
export type Message = Omit<typeof messages.$inferSelect, "searchVector" | "contentTokens">;

/** A message of a branch read as history: with its content's token count when it was stored. */
export type BranchMessage = Message & { contentTokens: number | null };

const { searchVector: _searchVector, contentTokens: _contentTokens, ...columns } = getTableColumns(messages);
export const messageColumns = columns;

export interface NewMessage {
  role: Message["role"];
  content: string;
  parts?: unknown[];
  model?: string | null;
  status?: MessageStatus;
  /** The content's tokens (lib/memory/tokens.ts countTokens); left out, a turn counts them when it reads the message. */
  contentTokens?: number | null;
}

/**
 * The conversation's current message, else its newest (lib/chat/branch.ts): where the shown branch
 * ends. SQL over the row of `conversations` in scope.
 */
const currentOfConversation = sql`coalesce(${conversations.currentMessageId}, (
  SELECT m.id FROM ${messages} m WHERE m.conversation_id = ${conversations.id} ORDER BY m.created_at DESC LIMIT 1))`;

/**
 * Adds messages to the user's conversation in one statement, in the order given, each following
 * the one before it: the first follows `parentMessageId` (null: a first message; left out: the
 * conversation's current message, so they continue the branch shown), and the last becomes the
 * conversation's current message. Each one's `created_at` is the statement's time plus its
 * position in microseconds, so they sort as given (a chat turn writes its question and the
 * answer's row together). A foreign or missing conversation → `not_found:conversation`; a
 * `parentMessageId` that is not a message of this conversation → `not_found:message`, checked in
 * the conversation's lock (`inConversation`), so a parent deleted meanwhile is that 404 too. The
 * conversation's `updated_at` becomes now.
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
      // Wrapped in sql: drizzle's check of the selected fields counts the generated search_vector
      // column, which an insert must not name (the column list it writes leaves it out).
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
          createdAt: sql`now() + ${position} * interval '1 microsecond'`.as("created_at"),
          updatedAt: sql`now()`.as("updated_at"),
        })
        .from(conversations)
        .where(and(eq(conversations.id, input.conversationId), eq(conversations.userId, input.userId)))}`,
  );
  const inserted = await db.insert(messages).select(sql.join(rows, sql` UNION ALL `)).returning(messageColumns);
  if (inserted.length === 0) throw notFound("conversation");
  // The conversation continues at the newest of them, and is touched (the chat list's order): one write of its row.
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

/** The user's message; a missing or foreign id is the same `not_found:message`. */
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

/** The user's message of that conversation; any other id is `not_found:message`. */
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

/** The messages of the user's conversation, oldest first. */
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
 * The last `limit` messages of a branch of the user's conversation, oldest first: the path from
 * the first message down to `throughId` (a message of the conversation), or to the conversation's
 * current message when left out — the history window of a chat turn. One recursive read up the
 * parent links (each step an index lookup); a `throughId` of another conversation or user → [].
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
  // A message is always created after its parent: the branch in creation order is the path's order.
  return db
    .select({ ...messageColumns, contentTokens: messages.contentTokens })
    .from(messages)
    .where(and(eq(messages.userId, userId), sql`${messages.id} IN (${branchIds})`))
    .orderBy(asc(messages.createdAt));
}

/** A conversation's messages as a tree (lib/chat/branch.ts): ids, parents, roles, statuses and creation times. */
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

/**
 * Makes `messageId` (null: none, the newest message then) the conversation's current message:
 * where the branch shown ends. The caller vouches it is a message of this conversation. `touch`:
 * also its updated_at (a new message: the chat list's order), in the same write.
 */
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

/**
 * Records how an assistant answer still `streaming` ended (complete, aborted or error) with the
 * text produced; false when it is no longer streaming — the interrupted-answer sweep settled it
 * (with its extraction) first, and a late finish must not silently overwrite that. Missing → 404.
 */
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
    /** The content's tokens (lib/memory/tokens.ts countTokens); null: counted when read. */
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

/** Saves the text of an answer still streaming (a later finish wins: nothing is written once it is not `streaming`). */
export async function saveAnswerProgress(
  db: Db,
  input: { userId: string; messageId: string; content: string },
): Promise<void> {
  await db
    .update(messages)
    .set({ content: input.content, contentTokens: null, updatedAt: new Date() })
    .where(and(eq(messages.id, input.messageId), eq(messages.userId, input.userId), eq(messages.status, "streaming")));
}

/** Postgres chose this transaction as a deadlock's victim (40P01): safe to run again. */
function isDeadlock(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "40P01") return true;
  }
  return false;
}

/** The ids of the user's message and every message below it (SQL). */
function messageAndBelow(userId: string, messageId: string) {
  return sql`WITH RECURSIVE below(id) AS (
      SELECT m.id FROM ${messages} m WHERE m.id = ${messageId}::uuid AND m.user_id = ${userId}::uuid
      UNION ALL
      SELECT m.id FROM ${messages} m JOIN below b ON m.parent_message_id = b.id WHERE m.user_id = ${userId}::uuid
    ) SELECT id FROM below`;
}

/**
 * Cancels the emails the agent prepared in the user's message, or in any message below it, that
 * still wait for approval (pending_confirmation → cancelled, `reason` as their error): they can no
 * longer be approved, and their cards say why. A regenerated answer's and an edited question's
 * branch (lib/chat/turn.ts), and a deleted version, lose theirs. Returns how many were cancelled.
 */
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
 * Deletes the user's message and every message below it (its later versions' continuations: the
 * parent link cascades), with their notes, debug records, extractions and transcriptions; the
 * memories extracted from them stay, their source message cleared (as when a conversation is
 * deleted). Missing or foreign → 404. Called inside `inConversation`, which makes it whole or
 * nothing and decides, in the same lock, where the conversation continues.
 */
export async function deleteMessage(db: Db, { userId, messageId }: { userId: string; messageId: string }) {
  // An email the agent prepared in these answers loses its approval card with them: it can no
  // longer be approved (the log keeps the row, cancelled, with the message id cleared by the delete).
  await cancelPendingSendsBelow(db, { userId, messageId, reason: "its answer was deleted" });
  const rows = await db
    .delete(messages)
    .where(and(eq(messages.id, messageId), eq(messages.userId, userId)))
    .returning({ id: messages.id });
  if (rows.length === 0) throw notFound("message");
}

/**
 * Runs `work` in one transaction that first locks the user's conversation row (a foreign or missing
 * one → `not_found:conversation`). Every change to a conversation's messages and current message
 * runs in it — a turn's new messages, stepping to a version, deleting one — so each reads the tree
 * as the one before it left it: a step never points the conversation at a message a delete removed,
 * and a delete never misses the step that made its message current. `FOR NO KEY UPDATE` leaves the
 * row's key free: rows that only reference the conversation (a note, a job) are written meanwhile.
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
  // A delete cascades to a pair's extraction, which a job may be working on at that moment (it
  // holds the extraction row and reads the message): Postgres then breaks the deadlock by failing
  // one side. The transaction is whole or nothing, so it is simply run again.
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= 3 || !isDeadlock(error)) throw error;
    }
  }
}
