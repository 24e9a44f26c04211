import { and, desc, eq, exists, ilike, inArray, lt, or, sql } from "drizzle-orm";
import { DEFAULT_CONVERSATION_TITLE, SNIPPET_END, SNIPPET_START } from "@/core/config";
import { AppError, notFound } from "@/core/errors";
import type { Db } from "@/db/client";
import { type ChatMode, conversations, gmailOperations, memoryExtractions, messages } from "@/db/schema";
import { firstOr } from "./first";

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

export async function getConversation(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<Conversation> {
  return firstOr(
    db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)))
      .limit(1),
    () => notFound("conversation"),
  );
}

/** The newest matching message. */
export interface MessageMatch {
  messageId: string;
  /** Matched words are between SNIPPET_START and SNIPPET_END. */
  snippet: string;
}

/** `match` null: the title matched. */
export type ListedConversation = Conversation & { match?: MessageMatch | null };

/** "veg tea" → `veg:* & tea:*`, so results come as the user types; only letters and digits reach the query. */
export function prefixTsQuery(q: string): string | null {
  const words = (q.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
  return words.length > 0 ? words.map((w) => `${w}:*`).join(" & ") : null;
}

export interface ConversationPage {
  conversations: ListedConversation[];
  nextCursor: string | null;
}

/** (updated_at, id): pages stay stable while new chats arrive. */
function encodeCursor(row: Conversation): string {
  return Buffer.from(`${row.updatedAt.toISOString()}|${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { updatedAt: Date; id: string } {
  const [at = "", id = ""] = Buffer.from(cursor, "base64url").toString().split("|");
  const updatedAt = new Date(at);
  if (Number.isNaN(updatedAt.getTime()) || !UUID.test(id)) {
    throw new AppError("bad_request", "Invalid cursor", { fields: { "query.cursor": "Invalid cursor" } });
  }
  return { updatedAt, id };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function listConversations(
  db: Db,
  {
    userId,
    archived = false,
    q,
    limit = 30,
    cursor,
  }: { userId: string; archived?: boolean; q?: string; limit?: number; cursor?: string },
): Promise<ConversationPage> {
  const after = cursor ? decodeCursor(cursor) : null;
  // Postgres keeps microseconds, a JS Date milliseconds: compare and order at millisecond precision.
  const activeAt = sql<Date>`date_trunc('milliseconds', ${conversations.updatedAt})`;
  const tsQuery = q ? prefixTsQuery(q) : null;
  const messageMatches = (query: string) =>
    and(
      eq(messages.userId, userId),
      sql`${messages.searchVector} @@ to_tsquery('english', ${query})`,
      sql`${messages.role} <> 'system'`,
    );
  const rows = await db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.userId, userId),
        eq(conversations.archived, archived),
        q
          ? or(
              ilike(conversations.title, `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
              tsQuery
                ? exists(
                    db
                      .select({ one: sql`1` })
                      .from(messages)
                      .where(and(eq(messages.conversationId, conversations.id), messageMatches(tsQuery))),
                  )
                : undefined,
            )
          : undefined,
        after
          ? or(lt(activeAt, after.updatedAt), and(eq(activeAt, after.updatedAt), lt(conversations.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(desc(activeAt), desc(conversations.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor(last) : null;
  if (!q) return { conversations: page, nextCursor };
  const matches = new Map<string, MessageMatch>();
  if (tsQuery && page.length > 0) {
    const found = await db
      .selectDistinctOn([messages.conversationId], {
        conversationId: messages.conversationId,
        messageId: messages.id,
        snippet: sql<string>`ts_headline('english', ${messages.content}, to_tsquery('english', ${tsQuery}), ${`StartSel=${SNIPPET_START}, StopSel=${SNIPPET_END}, MaxWords=14, MinWords=6, MaxFragments=1, FragmentDelimiter=" … "`})`,
      })
      .from(messages)
      .where(
        and(
          inArray(
            messages.conversationId,
            page.map((c) => c.id),
          ),
          messageMatches(tsQuery),
        ),
      )
      .orderBy(messages.conversationId, desc(messages.createdAt));
    for (const { conversationId, ...match } of found) matches.set(conversationId, match);
  }
  return {
    conversations: page.map((c) => ({ ...c, match: matches.get(c.id) ?? null })),
    nextCursor,
  };
}

export { DEFAULT_CONVERSATION_TITLE };

export type ConversationPatch = Partial<Pick<Conversation, "title" | "archived" | "mode" | "model" | "memoryEnabled">>;

/**
 * `updated_at` is when the chat last had a message (the list's order and date groups): a change of its
 * settings — title, archive, mode, model, memory switch — is not activity in it, so it leaves the date alone,
 * and an old imported chat keeps its original date.
 */
export async function updateConversation(
  db: Db,
  { userId, conversationId, patch }: { userId: string; conversationId: string; patch: ConversationPatch },
): Promise<Conversation> {
  return firstOr(
    db
      .update(conversations)
      .set(patch)
      .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)))
      .returning(),
    () => notFound("conversation"),
  );
}

/** True when it changed. */
export async function setTitleIfDefault(
  db: Db,
  { userId, conversationId, title }: { userId: string; conversationId: string; title: string },
): Promise<boolean> {
  const rows = await db
    .update(conversations)
    .set({ title })
    .where(
      and(
        eq(conversations.id, conversationId),
        eq(conversations.userId, userId),
        eq(conversations.title, DEFAULT_CONVERSATION_TITLE),
      ),
    )
    .returning({ id: conversations.id });
  return rows.length > 0;
}

export async function deleteConversation(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    // The extraction rows first, in the order a store takes them (its row, then the conversation): deleting the
    // conversation first locked it, then waited on a store that waited on the conversation — a deadlock.
    await tx
      .select({ id: memoryExtractions.id })
      .from(memoryExtractions)
      .where(and(eq(memoryExtractions.conversationId, conversationId), eq(memoryExtractions.userId, userId)))
      .orderBy(memoryExtractions.id)
      .for("update");
    // Detach the agent's log first: left to two ON DELETE SET NULL actions, one would re-check a reference to a
    // message this same delete removes, and fail.
    await tx
      .update(gmailOperations)
      .set({
        conversationId: null,
        messageId: null,
        status: sql`CASE WHEN ${gmailOperations.status} = 'pending_confirmation' THEN 'cancelled'::gmail_operation_status ELSE ${gmailOperations.status} END`,
        error: sql`CASE WHEN ${gmailOperations.status} = 'pending_confirmation' THEN 'its chat was deleted' ELSE ${gmailOperations.error} END`,
        updatedAt: new Date(),
      })
      .where(and(eq(gmailOperations.conversationId, conversationId), eq(gmailOperations.userId, userId)));
    const rows = await tx
      .delete(conversations)
      .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)))
      .returning({ id: conversations.id });
    if (rows.length === 0) throw notFound("conversation");
  });
}
