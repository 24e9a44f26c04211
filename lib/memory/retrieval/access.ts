/**
 * Access accounting: every memory whose line is in a prompt gets access_count + 1 and
 * last_accessed_at = now — once per prompt, whichever branches (pinned, semantic, conversation)
 * chose it. Previews never call this.
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

/**
 * One statement for the prompt's memories, owner-scoped: the count lives in `memory_usage` (a row per
 * memory ever read, created at its first access; migration 0009), so counting never rewrites a memory's
 * wide row and `memories.updated_at` is never written: reading a memory does not make it more recent.
 * Duplicate ids count once; another user's ids count nothing. Rows are taken in id order, so two turns
 * counting the same memories at once wait for each other instead of deadlocking.
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
