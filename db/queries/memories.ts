/** Every change runs in a transaction with its memory_events row, so a memory never changes without its history. */

import { and, desc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { deletionConfig } from "@/core/config";
import { AppError, notFound } from "@/core/errors";
import { type Db, selectRows } from "@/db/client";
import {
  type Actor,
  type MemoryEventAction,
  type MemoryStatus,
  type MemoryType,
  memories,
  memoryEvents,
} from "@/db/schema";
import { firstOr } from "./first";
import { insertMemoryEvents, type MemoryRow, snapshotOf } from "./memory-events";
import { type MemoryUsage, usageColumns, withUsage } from "./memory-usage";
import { redactDeletedMemories } from "./redaction";
import { comparableWith, isComparableSimilarity, ownedBy, similarityTo } from "./similarity";
import { halfvecValue } from "./vectors";

export type { MemoryRow };
export type NewMemory = typeof memories.$inferInsert;

/** The embedding and full-text columns are internal, never in a response. */
export type MemoryRecord = Omit<MemoryRow, "embedding" | "searchVector" | "searchLength"> & MemoryUsage;

const {
  embedding: _embedding,
  searchVector: _searchVector,
  searchLength: _searchLength,
  ...memoryColumns
} = getTableColumns(memories);
export const recordColumns = { ...memoryColumns, ...usageColumns };

export function toMemoryRecord(row: MemoryRow & MemoryUsage): MemoryRecord {
  const { embedding: _e, searchVector: _s, searchLength: _l, ...record } = row;
  return record;
}

export async function getMemory(
  db: Db,
  { userId, memoryId }: { userId: string; memoryId: string },
): Promise<MemoryRecord> {
  return firstOr(
    db
      .select(recordColumns)
      .from(memories)
      .where(and(eq(memories.id, memoryId), eq(memories.userId, userId)))
      .limit(1),
    () => notFound("memory"),
  );
}

/** Ids of other users' memories are simply absent. */
export async function listMemoriesByIds(
  db: Db,
  { userId, ids }: { userId: string; ids: readonly string[] },
): Promise<MemoryRecord[]> {
  if (ids.length === 0) return [];
  return db
    .select(recordColumns)
    .from(memories)
    .where(and(eq(memories.userId, userId), inArray(memories.id, [...ids])));
}

export interface NearMemory {
  id: string;
  title: string | null;
  content: string;
  type: MemoryType;
  status: MemoryStatus;
  provenance: MemoryRow["provenance"];
  similarity: number;
  foundBy: "vector" | "text" | "both";
}

/**
 * Near memories, found two ways and unioned: by cosine similarity among memories of the same embedder (vectors
 * of different embedders are not comparable), and by sharing a lexeme with `text`, ranked by the summed IDF of
 * the shared lexemes so "teacher" outweighs "work". The text way finds "Is no longer a teacher" for "Works as a
 * teacher" (0.20 apart offline). The two rankings alternate up to `limit`, so each keeps a place.
 */
export async function findNearMemories(
  db: Db,
  query: {
    userId: string;
    embedding: readonly number[];
    embeddingModel: string;
    /** Empty: vector neighbours only. */
    text: string;
    minSimilarity: number;
    limit: number;
  },
): Promise<NearMemory[]> {
  const vector = halfvecValue(query.embedding);
  return selectRows<NearMemory & Record<string, unknown>>(
    db,
    sql`
      WITH pool AS (
        SELECT id, search_vector, ${similarityTo(vector)} AS similarity
        FROM memories
        WHERE ${ownedBy(query.userId, ["active", "pending_confirmation"])} AND ${comparableWith(query.embeddingModel)}
      ),
      valid AS (SELECT id, search_vector, similarity FROM pool WHERE ${isComparableSimilarity(sql`similarity`)}),
      matches AS (
        SELECT DISTINCT v.id, t.lexeme
        FROM valid v CROSS JOIN LATERAL unnest(v.search_vector) AS t
        WHERE t.lexeme IN (SELECT lexeme FROM unnest(to_tsvector('english', ${query.text})))
      ),
      df AS (SELECT lexeme, count(*)::float8 AS df FROM matches GROUP BY lexeme),
      corpus AS (SELECT count(*)::float8 AS n FROM valid),
      text_scores AS (
        SELECT m.id, sum(ln(1 + (c.n - d.df + 0.5) / (d.df + 0.5)) ORDER BY m.lexeme COLLATE "C") AS text_score
        FROM matches m JOIN df d ON d.lexeme = m.lexeme CROSS JOIN corpus c
        GROUP BY m.id
      ),
      ranked AS (
        SELECT v.id, v.similarity,
               CASE WHEN v.similarity >= ${query.minSimilarity}::float8
                    THEN row_number() OVER (ORDER BY v.similarity DESC, v.id) END AS vector_rank,
               CASE WHEN t.text_score IS NOT NULL
                    THEN row_number() OVER (ORDER BY t.text_score DESC NULLS LAST, v.similarity DESC, v.id) END
                 AS text_rank
        FROM valid v LEFT JOIN text_scores t ON t.id = v.id
      ),
      near AS (
        SELECT id, similarity, vector_rank, text_rank
        FROM ranked
        WHERE vector_rank IS NOT NULL OR text_rank IS NOT NULL
        ORDER BY LEAST(coalesce(vector_rank, text_rank), coalesce(text_rank, vector_rank)), similarity DESC, id
        LIMIT ${query.limit}::int
      )
      SELECT m.id, m.title, m.content, m.type, m.status, m.provenance, n.similarity,
             CASE WHEN n.vector_rank IS NULL THEN 'text'
                  WHEN n.text_rank IS NULL THEN 'vector'
                  ELSE 'both' END AS "foundBy"
      FROM near n JOIN memories m ON m.id = n.id
      ORDER BY n.similarity DESC, n.id`,
  );
}

/** The advisory lock's class key; any fixed int4 — these bytes spell "LLMC". */
const CONSOLIDATION_LOCK_CLASS = 0x4c4c4d43;

/**
 * A transaction-level advisory lock (which a transaction-mode pooler keeps): one `remember` applies its plan at a
 * time per user, on every instance.
 */
export async function lockConsolidation(tx: Db, { userId }: { userId: string }): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${CONSOLIDATION_LOCK_CLASS}, hashtext(${userId}))`);
}

export async function lockMemory(
  db: Db,
  { userId, memoryId }: { userId: string; memoryId: string },
): Promise<(MemoryRow & MemoryUsage) | null> {
  const [row] = await db
    .select(withUsage)
    .from(memories)
    .where(and(eq(memories.id, memoryId), eq(memories.userId, userId)))
    .for("update")
    .limit(1);
  return row ?? null;
}

export async function insertMemory(db: Db, values: NewMemory): Promise<MemoryRow> {
  const [row] = await db.insert(memories).values(values).returning();
  if (!row) throw new Error("insert returned no memory");
  return row;
}

interface ChangeOptions {
  action: MemoryEventAction;
  actor: Actor;
  reason?: string | null;
  extractionId?: string | null;
  /** False for patches that do not change the meaning (only `pinned`): recency is measured from updated_at. */
  touchesUpdatedAt?: (patch: NonNullable<MemoryChange>) => boolean;
}

export type MemoryChange = PgUpdateSetSource<typeof memories> | null;

/** `change` returns the columns to set, null for nothing to do (no write, no event), or throws to refuse. */
export async function changeMemory(
  db: Db,
  key: { userId: string; memoryId: string },
  options: ChangeOptions,
  change: (current: MemoryRow, tx: Db) => MemoryChange | Promise<MemoryChange>,
): Promise<MemoryRow & MemoryUsage> {
  return db.transaction(async (tx) => {
    const current = await lockMemory(tx, key);
    if (!current) throw notFound("memory");
    const patch = await change(current, tx);
    if (patch === null) return current;
    const touch = options.touchesUpdatedAt?.(patch) ?? true;
    const [updated] = await tx
      .update(memories)
      .set(touch ? { ...patch, updatedAt: sql`clock_timestamp()` } : patch)
      .where(and(eq(memories.id, key.memoryId), eq(memories.userId, key.userId)))
      .returning(withUsage);
    if (!updated) throw notFound("memory");
    await insertMemoryEvents(tx, [
      {
        userId: key.userId,
        memoryId: key.memoryId,
        action: options.action,
        actor: options.actor,
        before: snapshotOf(current),
        after: snapshotOf(updated),
        reason: options.reason,
        extractionId: options.extractionId,
      },
    ]);
    return updated;
  });
}

export interface MemoryPatch {
  content?: string;
  title?: string | null;
  type?: MemoryType;
  importance?: number;
  tags?: string[];
  pinned?: boolean;
}

export interface EmbeddingOf {
  vector: number[];
  model: string;
  title: string | null;
  content: string;
}

export function isPinOnly(patch: MemoryPatch): boolean {
  return Object.entries(patch).every(([key, value]) => key === "pinned" || value === undefined);
}

/**
 * Pinning alone is not an edit: recency stays and nothing is re-embedded. `embedding` must describe the resulting
 * text (embedded before the transaction); if the memory changed meanwhile the edit is refused (409).
 */
export async function updateMemory(
  db: Db,
  input: { userId: string; memoryId: string; patch: MemoryPatch; embedding?: EmbeddingOf },
): Promise<MemoryRecord> {
  const { patch, embedding } = input;
  const pinOnly = isPinOnly(patch);
  const options: ChangeOptions = { action: "update", actor: "user", touchesUpdatedAt: () => !pinOnly };
  const row = await changeMemory(db, input, options, (current) => {
    if (current.status === "deleted") {
      throw new AppError("conflict:memory_deleted", "This memory is deleted; restore it before editing it");
    }
    const title = patch.title !== undefined ? patch.title : current.title;
    const content = patch.content ?? current.content;
    const textChanged = title !== current.title || content !== current.content;
    if (textChanged && (!embedding || embedding.title !== title || embedding.content !== content)) {
      throw new AppError("conflict:memory_changed", "The memory changed while it was being edited; try again");
    }
    if (pinOnly) return patch.pinned === undefined ? null : { pinned: patch.pinned };
    return {
      ...patch,
      ...(textChanged && embedding ? { embedding: embedding.vector, embeddingModel: embedding.model } : {}),
      editedAt: sql`clock_timestamp()`,
    };
  });
  return toMemoryRecord(row);
}

/** The database's clock, as the sweep compares. */
const undoWindowEnd = () => sql`clock_timestamp() + ${deletionConfig.undoWindowMs} * interval '1 millisecond'`;

/**
 * Derived records keep the memory's text for the undo window so undo restores them all; with `now`, or on an
 * already-deleted memory whose window is open, the text is redacted in this transaction.
 */
export async function deleteMemory(
  db: Db,
  key: { userId: string; memoryId: string },
  { now = false }: { now?: boolean } = {},
): Promise<MemoryRecord> {
  return db.transaction(async (tx) => {
    const row = await changeMemory(tx, key, { action: "delete", actor: "user" }, async (current) => {
      if (current.status === "deleted") return null;
      return { status: "deleted", redactAt: now ? null : undoWindowEnd() };
    });
    if (now && row.status === "deleted") return toMemoryRecord(await redactNow(tx, key, row));
    return toMemoryRecord(row);
  });
}

async function redactNow(
  tx: Db,
  key: { userId: string; memoryId: string },
  row: MemoryRow & MemoryUsage,
): Promise<MemoryRow & MemoryUsage> {
  await redactDeletedMemories(tx, { userId: key.userId, memoryIds: [key.memoryId] });
  if (row.redactAt === null) return row;
  const [updated] = await tx
    .update(memories)
    .set({ redactAt: null })
    .where(and(eq(memories.id, key.memoryId), eq(memories.userId, key.userId)))
    .returning({ redactAt: memories.redactAt });
  return { ...row, redactAt: updated?.redactAt ?? null };
}

/** After the undo window only the memory comes back: what the sweep redacted stays redacted. */
export async function restoreMemory(db: Db, key: { userId: string; memoryId: string }): Promise<MemoryRecord> {
  const row = await changeMemory(db, key, { action: "restore", actor: "user" }, async (current, tx) => {
    if (current.status !== "deleted") {
      throw new AppError("conflict:memory_not_deleted", "Only a deleted memory can be restored");
    }
    const [last] = await tx
      .select({ before: memoryEvents.before })
      .from(memoryEvents)
      .where(
        and(
          eq(memoryEvents.memoryId, key.memoryId),
          eq(memoryEvents.userId, key.userId),
          inArray(memoryEvents.action, ["delete", "discard"]),
        ),
      )
      .orderBy(desc(memoryEvents.createdAt), desc(memoryEvents.id))
      .limit(1);
    const previous = last?.before?.status;
    return { status: previous && previous !== "deleted" ? previous : "active", redactAt: null };
  });
  return toMemoryRecord(row);
}

const notPending = () =>
  new AppError(
    "conflict:memory_not_pending",
    "Only a suggestion waiting for confirmation can be confirmed or discarded",
  );

export async function confirmMemory(db: Db, key: { userId: string; memoryId: string }): Promise<MemoryRecord> {
  const row = await changeMemory(db, key, { action: "confirm", actor: "user" }, (current) => {
    if (current.status !== "pending_confirmation") throw notPending();
    return { status: "active" };
  });
  return toMemoryRecord(row);
}

export async function discardMemory(db: Db, key: { userId: string; memoryId: string }): Promise<MemoryRecord> {
  const row = await changeMemory(db, key, { action: "discard", actor: "user" }, async (current) => {
    if (current.status !== "pending_confirmation") throw notPending();
    return { status: "deleted", redactAt: undoWindowEnd() };
  });
  return toMemoryRecord(row);
}
