import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

/**
 * The count lives in `memory_usage`, so counting never rewrites a memory's wide row nor makes it more
 * recent. Rows are taken in id order, so two turns counting the same memories wait instead of deadlocking.
 */
export async function recordAccess(db: Db, input: { userId: string; memoryIds: readonly string[]; now: Date }) {
  const ids = [...new Set(input.memoryIds)];
  if (ids.length === 0) return;
  await db.execute(sql`
    INSERT INTO memory_usage (memory_id, access_count, last_accessed_at)
    SELECT m.id, 1, ${input.now.toISOString()}::timestamptz
    FROM memories m
    WHERE m.user_id = ${input.userId}::uuid
      AND m.id IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
    ORDER BY m.id
    ON CONFLICT (memory_id) DO UPDATE
    SET access_count = memory_usage.access_count + 1, last_accessed_at = excluded.last_accessed_at`);
}
