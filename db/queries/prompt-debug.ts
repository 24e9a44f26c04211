/** Debug records — what the model received for an assistant message, and why. Owner-scoped. */

import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { notFound } from "@/core/errors";
import { type Db, selectRows } from "@/db/client";
import { promptDebug } from "@/db/schema";
import { firstOr } from "./first";
import { lockedLiveMemories, lockGoneMemories, redactPromptDebug, traceMemoryIds, validMemoryIds } from "./redaction";

export type PromptDebug = typeof promptDebug.$inferSelect;
export type NewPromptDebug = typeof promptDebug.$inferInsert;

/**
 * Writes the record of an assistant message (one per message: a second write replaces the first).
 * A memory of its trace that was deleted (or erased) since the turn read it is redacted at once,
 * in the same transaction, which holds the other memories against a delete until it commits: a
 * record written after a delete never brings the deleted text back (db/queries/redaction.ts).
 *
 * The usual case, every referenced memory still there, is one statement (the chat turn writes this
 * record before the answer's first token reaches the user): it takes the memories' locks and writes
 * only if none is gone. When one is, it writes nothing, and the transaction below locks, writes and
 * redacts.
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

/**
 * The record's upsert in one statement, guarded: the referenced memories are locked as the
 * transaction path locks them (lockedLiveMemories), and the row is written only when all of them
 * are still there. false: nothing written.
 */
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
