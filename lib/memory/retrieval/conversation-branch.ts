/** A memory included this way is NOT a similarity match. */

import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memories } from "@/db/schema";
import { type RetrievedMemory, retrievedMemoryColumns } from "./memory-row";
import { float4 } from "./score";

export interface ConversationCandidate extends RetrievedMemory {
  rank: number;
}

export interface ConversationQuery {
  userId: string;
  conversationId: string;
  limit: number;
}

export async function retrieveConversationMemories(db: Db, query: ConversationQuery): Promise<ConversationCandidate[]> {
  const rows = await db
    .select(retrievedMemoryColumns)
    .from(memories)
    .where(
      and(
        eq(memories.userId, query.userId),
        eq(memories.sourceConversationId, query.conversationId),
        eq(memories.status, "active"),
      ),
    )
    .orderBy(desc(memories.importance), desc(memories.createdAt), asc(memories.id))
    .limit(query.limit);
  // The driver parses float4 text ("0.7") to the nearest double; widen it the way the semantic
  // SQL's importance::float8 does, so both branches carry the identical number for one memory.
  return rows.map((row, index) => ({ ...row, importance: float4(row.importance), rank: index + 1 }));
}
