/**
 * Access accounting: every memory whose line is in a prompt gets access_count + 1 and
 * last_accessed_at = now — once per prompt, whichever branches (pinned, semantic, conversation)
 * chose it. Previews never call this.
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

/**
 * One UPDATE for the prompt's memories, owner-scoped and active only. updated_at is never written:
 * reading a memory does not make it more recent. Duplicate ids count once.
 */
export async function recordAccess(db: Db, input: { userId: string; memoryIds: readonly string[]; now: Date }) {
  const ids = [...new Set(input.memoryIds)];
  if (ids.length === 0) return;
  await db.execute(sql`
    UPDATE memories
    SET access_count = access_count + 1, last_accessed_at = ${input.now.toISOString()}::timestamptz
    WHERE user_id = ${input.userId}::uuid
      AND id IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`);
}
