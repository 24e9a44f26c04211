/** A memory included this way is NOT a similarity match. */

import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memories } from "@/db/schema";
import { type RetrievedMemory, retrievedMemoryColumns } from "./memory-row";
import { float4 } from "./score";

export interface PinnedCandidate extends RetrievedMemory {
  rank: number;
  selected: boolean;
}

export interface PinnedQuery {
  userId: string;
  limit: number;
  listLimit: number;
}

/** Embeddings play no part, so a pinned memory waiting to be re-embedded is still in context. */
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
