import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  conversations,
  type MemoryProvenance,
  type MemoryStatus,
  type MemoryType,
  memories,
  memoryEvents,
  promptDebug,
} from "@/db/schema";
import { readByColumn, sourceTokenNameColumn } from "./mcp-calls";
import { type MemoryRecord, recordColumns } from "./memories";
import { usageColumns } from "./memory-usage";
import { redactDeletedMemories } from "./redaction";
import { comparableWith, isComparableSimilarity, nearestTo, similarityTo } from "./similarity";
import { halfvecValue } from "./vectors";

/** Without a search, `relevance` is `recent`. */
export const MEMORY_SORTS = ["relevance", "recent", "importance", "used"] as const;
export type MemorySort = (typeof MEMORY_SORTS)[number];

export interface MemoryFilters {
  userId: string;
  /** Full text, plus a substring match for short words. */
  q?: string;
  /** With `q`: rank by cosine similarity instead, among memories of the same embedder. */
  semantic?: { embedding: readonly number[]; embeddingModel: string };
  /** Less similar matches are left out and counted in `hidden`, as retrieval leaves them out of a prompt. */
  minSimilarity?: number;
  type?: MemoryType;
  tag?: string;
  provenance?: MemoryProvenance;
  /** Default: active and pending_confirmation, what a user thinks of as "my memories". */
  status?: MemoryStatus;
  pinned?: boolean;
  sort?: MemorySort;
  page?: number;
  pageSize?: number;
}

export interface ListedMemory extends MemoryRecord {
  sourceConversationTitle: string | null;
  sourceTokenName: string | null;
  readBy: string[];
  /**
   * Whether the source answer has a debug record, so an Inspect view (its extraction included): an
   * imported answer was never sent to a model here and has none.
   */
  sourceInspectable: boolean;
  similarity: number | null;
}

export interface MemoryPage {
  memories: ListedMemory[];
  total: number;
  hidden: number;
  page: number;
  pageSize: number;
}

const sourceInspectableColumn = sql<boolean>`EXISTS (
  SELECT 1 FROM ${promptDebug} d
  WHERE d.message_id = ${memories.sourceAssistantMessageId} AND d.user_id = ${memories.userId}
)`;

const listedColumns = {
  ...recordColumns,
  sourceConversationTitle: conversations.title,
  sourceTokenName: sourceTokenNameColumn,
  readBy: readByColumn,
  sourceInspectable: sourceInspectableColumn,
};

function sourceConversation(userId: string) {
  return and(eq(conversations.id, memories.sourceConversationId), eq(conversations.userId, userId));
}

/** One memory of the user by id, whatever its status, shaped like a listed one; null if not theirs. */
export async function getListedMemory(
  db: Db,
  { userId, memoryId }: { userId: string; memoryId: string },
): Promise<ListedMemory | null> {
  const [row] = await db
    .select({ ...listedColumns, similarity: sql<null>`NULL::float8` })
    .from(memories)
    .leftJoin(conversations, sourceConversation(userId))
    .where(and(eq(memories.userId, userId), eq(memories.id, memoryId)));
  return row ?? null;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listMemories(db: Db, filters: MemoryFilters): Promise<MemoryPage> {
  const page = Math.max(1, filters.page ?? 1);
  const pageSize = Math.min(100, Math.max(1, filters.pageSize ?? 20));
  const q = filters.q?.trim();
  const semantic = q && filters.semantic ? halfvecValue(filters.semantic.embedding) : null;
  const similarity = semantic ? similarityTo(semantic) : sql<null>`NULL::float8`;

  const conditions: (SQL | undefined)[] = [
    eq(memories.userId, filters.userId),
    filters.status
      ? eq(memories.status, filters.status)
      : sql`${memories.status} IN ('active', 'pending_confirmation')`,
    filters.type ? eq(memories.type, filters.type) : undefined,
    filters.provenance ? eq(memories.provenance, filters.provenance) : undefined,
    filters.pinned !== undefined ? eq(memories.pinned, filters.pinned) : undefined,
    filters.tag ? sql`${filters.tag} = ANY(${memories.tags})` : undefined,
    semantic && filters.semantic
      ? and(comparableWith(filters.semantic.embeddingModel), isComparableSimilarity(similarity))
      : undefined,
    q && !semantic
      ? sql`(${memories.searchVector} @@ websearch_to_tsquery('english', ${q})
             OR ${memories.content} ILIKE ${`%${escapeLike(q)}%`}
             OR ${memories.title} ILIKE ${`%${escapeLike(q)}%`})`
      : undefined,
  ];
  const threshold =
    semantic && filters.minSimilarity !== undefined ? sql`${similarity} >= ${filters.minSimilarity}` : undefined;
  const where = and(...conditions, threshold);
  const textQuery = q && !semantic ? sql`websearch_to_tsquery('english', ${q})` : null;
  const byRelevance = q && (filters.sort === undefined || filters.sort === "relevance");

  const order: SQL[] = byRelevance
    ? semantic
      ? [nearestTo(semantic)]
      : [sql`ts_rank_cd(${memories.searchVector}, ${textQuery}) DESC`, desc(memories.updatedAt)]
    : filters.sort === "importance"
      ? [desc(memories.importance), desc(memories.updatedAt)]
      : filters.sort === "used"
        ? [desc(usageColumns.accessCount), sql`${usageColumns.lastAccessedAt} DESC NULLS LAST`]
        : [desc(memories.pinned), desc(memories.updatedAt)];

  const [rows, [count]] = await Promise.all([
    db
      .select({ ...listedColumns, similarity })
      .from(memories)
      .leftJoin(conversations, sourceConversation(filters.userId))
      .where(where)
      .orderBy(...order, asc(memories.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: sql<number>`count(*)::int` }).from(memories).where(where),
  ]);
  const total = count?.total ?? 0;
  const hidden = threshold
    ? ((
        await db
          .select({ total: sql<number>`count(*)::int` })
          .from(memories)
          .where(and(...conditions))
      )[0]?.total ?? total) - total
    : 0;
  return { memories: rows, total, hidden, page, pageSize };
}

/** The user's active memories, oldest first: what "Copy for another assistant" hands out. */
export async function listActiveMemories(db: Db, { userId }: { userId: string }) {
  return db
    .select({ type: memories.type, content: memories.content, deadline: memories.deadline, pinned: memories.pinned })
    .from(memories)
    .where(and(eq(memories.userId, userId), eq(memories.status, "active")))
    .orderBy(asc(memories.createdAt), asc(memories.id));
}

export async function exportMemories(db: Db, { userId }: { userId: string }) {
  const [rows, events] = await Promise.all([
    db.select(recordColumns).from(memories).where(eq(memories.userId, userId)).orderBy(asc(memories.createdAt)),
    db
      .select({
        memoryId: memoryEvents.memoryId,
        action: memoryEvents.action,
        actor: memoryEvents.actor,
        before: memoryEvents.before,
        after: memoryEvents.after,
        reason: memoryEvents.reason,
        createdAt: memoryEvents.createdAt,
      })
      .from(memoryEvents)
      .where(eq(memoryEvents.userId, userId))
      .orderBy(asc(memoryEvents.createdAt)),
  ]);
  return rows.map((memory) => ({ ...memory, history: events.filter((e) => e.memoryId === memory.id) }));
}

/** Not a soft delete. Rows are locked in id order first, the order writers of derived records lock them in. */
export async function deleteAllMemories(db: Db, { userId }: { userId: string }): Promise<number> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: memories.id })
      .from(memories)
      .where(eq(memories.userId, userId))
      .orderBy(asc(memories.id))
      .for("update");
    const deleted = await tx.delete(memories).where(eq(memories.userId, userId)).returning({ id: memories.id });
    await redactDeletedMemories(tx, { userId, memoryIds: deleted.map((row) => row.id) });
    return deleted.length;
  });
}
