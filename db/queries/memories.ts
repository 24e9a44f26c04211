/**
 * Memories, always of one owner: every statement filters by user_id, and a missing or foreign id is
 * the same `not_found:memory`. Every change runs in a transaction with its memory_events row, so a
 * memory never changes without its history saying who changed it and how.
 */

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

/**
 * A memory as the API shows it: every column but the embedding vector and the full-text columns
 * (search vector, its BM25 length) — internal, never in a response — with how
 * often it was read (memory_usage).
 */
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

/** The user's memories among `ids`, in no particular order (ids of others are simply absent). */
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
  /** How it was found: its embedding is at least `minSimilarity` similar, it shares words with `text`, or both. */
  foundBy: "vector" | "text" | "both";
}

/**
 * The user's active or pending memories that are near a new candidate, found two ways in one
 * statement and unioned:
 *
 * - **vector**: the embedding — made by the same embedder, since vectors of different embedders
 *   are not comparable — has cosine similarity ≥ `minSimilarity` to `embedding`;
 * - **text**: the memory's full-text vector (`search_vector`, title + content under the 'english'
 *   configuration) shares at least one lexeme with `to_tsvector('english', text)` — `text` is the
 *   candidate's "title: content". Stop words never match; the matches are ranked by the summed
 *   rarity (BM25's IDF, over this user's memories) of the shared lexemes, so "teacher" counts far
 *   more than "work". This finds "Is no longer a teacher" for "Works as a teacher" whatever their
 *   embeddings say (0.20 apart for the offline embedder).
 *
 * At most `limit` rows, taken alternately from the two rankings (best vector neighbour, best text
 * match, second of each, …; a memory found both ways takes its better rank), then returned most
 * similar first. Only memories embedded by the same embedder are considered (so every row has a
 * comparable similarity). An exact scan of the user's rows (memories_user_status_idx), like
 * retrieval and for the same reasons (see lib/memory/retrieval/retrieve.ts); on PGlite and Postgres alike.
 */
export async function findNearMemories(
  db: Db,
  query: {
    userId: string;
    embedding: readonly number[];
    embeddingModel: string;
    /** The candidate's "title: content" (memoryEmbeddingText); empty: vector neighbours only. */
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

/**
 * The class key of the per-user consolidation lock (the first of pg_advisory_xact_lock's two int4
 * keys; the user id's hash is the second). Any fixed int4: these spell "LLMC" in ASCII.
 */
const CONSOLIDATION_LOCK_CLASS = 0x4c4c4d43;

/**
 * Holds the user's consolidation lock until the transaction ends: one `remember` at a time per
 * user applies its plan, on every server instance (a transaction-level advisory lock, which a
 * pooler in transaction mode keeps). Two users whose ids hash alike only wait for each other.
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
  /**
   * Default true. false when `change` returns a patch that does not change the memory's meaning
   * (only `pinned`): updated_at — which retrieval's recency is measured from — stays as it was.
   */
  touchesUpdatedAt?: (patch: NonNullable<MemoryChange>) => boolean;
}

export type MemoryChange = PgUpdateSetSource<typeof memories> | null;

/**
 * Applies `change` to the locked memory and records the event, in one transaction (nested in the
 * caller's when `db` is one). `change` sees the current row and returns the columns to set, null
 * for "nothing to do" (no write, no event), or throws an AppError (e.g. a 409) to refuse.
 */
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
 * The user's edit: sets edited_at, records an `update` event by the user. Pinning or unpinning
 * alone is not an edit: edited_at and updated_at (recency) stay as they were, nothing is
 * re-embedded, and the `update` event still records the change. When content or title
 * change, `embedding` must be the embedding of the resulting title and content (the caller embeds
 * before the transaction): the stored vector always describes the stored text. If the memory
 * changed in between so that the embedding no longer matches, the edit is refused (409).
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

/** The end of the undo window of a delete made now (the database's clock, as the sweep compares). */
const undoWindowEnd = () => sql`clock_timestamp() + ${deletionConfig.undoWindowMs} * interval '1 millisecond'`;

/**
 * Marks the memory deleted (never retrieved again; restorable). The records derived from it keep
 * its text for the undo window (`redact_at`), so that an undo restores every one of them; then the
 * sweep redacts it (redactDueDeletions). With `now`, or on a memory already deleted whose window is
 * open, the text is redacted in this transaction ("delete now"). Deleting a deleted memory changes
 * nothing else.
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

/** Redacts the deleted memory's text from derived records now, and closes its undo window. */
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

/**
 * Undoes a delete or discard: the memory gets back the status it had before (active or pending).
 * Within the undo window nothing was redacted: every derived record is as it was. After it, only
 * the memory comes back: what the sweep redacted from derived records stays redacted.
 */
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

/**
 * The user discards an assistant suggestion: it is marked deleted (restorable as a suggestion),
 * and its text leaves derived records when the undo window closes, like a delete.
 */
export async function discardMemory(db: Db, key: { userId: string; memoryId: string }): Promise<MemoryRecord> {
  const row = await changeMemory(db, key, { action: "discard", actor: "user" }, async (current) => {
    if (current.status !== "pending_confirmation") throw notPending();
    return { status: "deleted", redactAt: undoWindowEnd() };
  });
  return toMemoryRecord(row);
}
