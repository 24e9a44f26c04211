/**
 * Pinned branch: the memories the user pinned are always in context (like ChatGPT's saved
 * memories), whatever the message — so a memory included this way is NOT a similarity match.
 * Capped by `pinnedLimit`; the trace also lists pinned memories past the cap (dropped by limit).
 */

import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memories } from "@/db/schema";
import { type RetrievedMemory, retrievedMemoryColumns } from "./memory-row";
import { float4 } from "./score";

export interface PinnedCandidate extends RetrievedMemory {
  /** 1-based position in this branch's order. */
  rank: number;
  /** rank ≤ limit; the others are listed only so the trace can show them as dropped by limit. */
  selected: boolean;
}

export interface PinnedQuery {
  userId: string;
  /** At most this many are selected (core/config's `pinnedLimit`). */
  limit: number;
  /** Rows returned in all (selected + over the cap), at least `limit`. */
  listLimit: number;
}

/**
 * The user's active pinned memories, by importance desc, then updated_at desc (then id, for a
 * stable order); ranks 1…limit are selected. Read-only and owner-scoped; embeddings play no part,
 * so a pinned memory waiting to be re-embedded is still in context.
 */
export async function retrievePinnedMemories(db: Db, query: PinnedQuery): Promise<PinnedCandidate[]> {
  if (query.limit <= 0) return [];
  const rows = await db
    .select(retrievedMemoryColumns)
    .from(memories)
    .where(and(eq(memories.userId, query.userId), eq(memories.pinned, true), eq(memories.status, "active")))
    .orderBy(desc(memories.importance), desc(memories.updatedAt), asc(memories.id))
    .limit(Math.max(query.limit, query.listLimit));
  // Widened like the semantic SQL's importance::float8 (see conversation-branch.ts).
  return rows.map((row, index) => ({
    ...row,
    importance: float4(row.importance),
    rank: index + 1,
    selected: index < query.limit,
  }));
}
