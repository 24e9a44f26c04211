import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { notFound } from "@/core/errors";
import { type Db, selectRows } from "@/db/client";
import { promptDebug } from "@/db/schema";
import { firstOr } from "./first";
import { lockedLiveMemories, lockGoneMemories, redactPromptDebug, traceMemoryIds, validMemoryIds } from "./redaction";

export type PromptDebug = typeof promptDebug.$inferSelect;
export type NewPromptDebug = typeof promptDebug.$inferInsert;

/**
 * One record per message. A memory deleted since the turn read it is redacted in the same transaction, so a
 * record written after a delete never brings its text back. The usual case, nothing gone, is one statement,
 * because the turn writes this before the answer's first token reaches the user.
 */
export async function savePromptDebug(db: Db, record: NewPromptDebug): Promise<void> {
  const { messageId: _messageId, userId: _userId, ...changes } = record;
  const upsert = (tx: Db) =>
    tx
      .insert(promptDebug)
      .values(record)
      .onConflictDoUpdate({ target: promptDebug.messageId, set: { ...changes, updatedAt: new Date() } });
  const referenced = validMemoryIds(traceMemoryIds(record.trace));
  if (referenced.length === 0) {
    await upsert(db);
    return;
  }
  if (await upsertIfAllAlive(db, record, referenced)) return;
  await db.transaction(async (tx) => {
    const gone = await lockGoneMemories(tx, { userId: record.userId, memoryIds: referenced });
    await upsert(tx);
    await redactPromptDebug(tx, { userId: record.userId, memoryIds: gone, messageId: record.messageId });
  });
}

/** Locks the memories as lockedLiveMemories does and writes only when none is gone; false: nothing written. */
async function upsertIfAllAlive(db: Db, record: NewPromptDebug, memoryIds: readonly string[]): Promise<boolean> {
  const columns = getTableColumns(promptDebug);
  const given = (Object.keys(record) as (keyof typeof columns)[]).filter((key) => record[key] !== undefined);
  const name = (key: keyof typeof columns) => sql.identifier(columns[key].name);
  const value = (key: keyof typeof columns) =>
    sql`${sql.param(record[key], columns[key])}::${sql.raw(columns[key].getSQLType())}`;
  const updated = given.filter((key) => key !== "messageId" && key !== "userId");
  const written = await selectRows<{ written: number }>(
    db,
    sql`WITH alive AS (${lockedLiveMemories(record.userId, memoryIds)})
        INSERT INTO prompt_debug (${sql.join(given.map(name), sql`, `)})
        SELECT ${sql.join(given.map(value), sql`, `)}
        WHERE (SELECT count(*) FROM alive) = ${memoryIds.length}
        ON CONFLICT (message_id) DO UPDATE
        SET ${sql.join([...updated.map((key) => sql`${name(key)} = excluded.${name(key)}`), sql`updated_at = now()`], sql`, `)}
        RETURNING 1 AS written`,
  );
  return written.length > 0;
}

export async function getPromptDebug(
  db: Db,
  { userId, messageId }: { userId: string; messageId: string },
): Promise<PromptDebug> {
  return firstOr(
    db
      .select()
      .from(promptDebug)
      .where(and(eq(promptDebug.messageId, messageId), eq(promptDebug.userId, userId)))
      .limit(1),
    () => notFound("message"),
  );
}
