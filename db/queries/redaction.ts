/**
 * "Delete means gone": a deleted memory's text is redacted from every record derived from it (the table in
 * docs/retrieval.md#deleting-a-memory), with jsonb SQL that runs on Postgres and PGlite alike. Free-text reasons
 * go too: a model may quote the memory in them. The memory's own row and history stay (a delete is undoable).
 * Redaction is idempotent and re-applied when a debug record or decisions are written, so a turn that read a
 * memory before its delete never brings its text back.
 */
import { type SQL, sql } from "drizzle-orm";
import { DELETED_MEMORY, DELETED_MEMORY_LINE, REDACTED_REASON } from "@/core/deleted-memory";
import { type Db, selectRows } from "@/db/client";
import { redactExtractionInputs } from "./extraction-input-redaction";
import { redactMcpCalls } from "./mcp-call-redaction";

export { DELETED_MEMORY, DELETED_MEMORY_LINE, REDACTED_REASON };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** jsonb_array_elements refuses anything but an array. */
const arrayOf = (value: SQL) => sql`(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END)`;

/** One JSON-array parameter, whatever the count. */
const goneCte = (memoryIds: readonly string[]) =>
  sql`gone AS (SELECT coalesce(array_agg(value), '{}'::text[]) AS ids FROM jsonb_array_elements_text(${JSON.stringify(memoryIds)}::jsonb))`;

export interface RedactionScope {
  userId: string;
  memoryIds: readonly string[];
  messageId?: string;
  extractionId?: string;
}

/**
 * The redaction statements' estimated cost passes `jit_above_cost`, and LLVM-compiling each call made a memory
 * delete take 1–4 s instead of milliseconds. `SET LOCAL` ends with the transaction; PGlite has no JIT.
 */
export async function withoutJit(db: Db): Promise<void> {
  await db.execute(sql`SET LOCAL jit = off`);
}

export async function redactPromptDebug(db: Db, scope: RedactionScope): Promise<void> {
  if (scope.memoryIds.length === 0) return;
  await withoutJit(db);
  const candidates = arrayOf(sql`t.trace->'candidates'`);
  await db.execute(sql`
    WITH ${goneCte(scope.memoryIds)},
    target AS (
      SELECT p.id, p.trace, p.model_input,
             ARRAY(
               SELECT c->>'line' FROM jsonb_array_elements(${arrayOf(sql`p.trace->'candidates'`)}) c
               WHERE c->>'memoryId' = ANY(g.ids) AND c->>'line' IS NOT NULL
             ) AS lines
             , EXISTS (
               SELECT 1 FROM jsonb_array_elements(${arrayOf(sql`p.trace->'toolCalls'`)}) tc,
                             jsonb_array_elements(${arrayOf(sql`tc->'memories'`)}) r
               WHERE r->>'memoryId' = ANY(g.ids)
             ) AS tool_hit
      FROM prompt_debug p, gone g
      WHERE p.user_id = ${scope.userId}::uuid
        ${scope.messageId ? sql`AND p.message_id = ${scope.messageId}::uuid` : sql``}
        AND (
          EXISTS (
            SELECT 1 FROM jsonb_array_elements(${arrayOf(sql`p.trace->'candidates'`)}) c
            WHERE c->>'memoryId' = ANY(g.ids)
          )
          OR EXISTS (
            SELECT 1 FROM jsonb_array_elements(${arrayOf(sql`p.trace->'toolCalls'`)}) tc,
                          jsonb_array_elements(${arrayOf(sql`tc->'memories'`)}) r
            WHERE r->>'memoryId' = ANY(g.ids)
          )
        )
      FOR UPDATE OF p
    )
    UPDATE prompt_debug p SET
      trace = t.trace || jsonb_build_object(
        'candidates', (
          SELECT coalesce(jsonb_agg(
            CASE WHEN c->>'memoryId' = ANY(g.ids) THEN c || jsonb_build_object(
              'title', 'null'::jsonb,
              'content', ${DELETED_MEMORY}::text,
              'line', CASE WHEN c->>'line' IS NULL THEN 'null'::jsonb ELSE to_jsonb(${DELETED_MEMORY_LINE}::text) END,
              'redacted', true)
            ELSE c END ORDER BY o), '[]'::jsonb)
          FROM jsonb_array_elements(${candidates}) WITH ORDINALITY AS e(c, o)
        ),
        'memoryLines', (
          SELECT coalesce(jsonb_agg(
            CASE WHEN l #>> '{}' = ANY(t.lines) THEN to_jsonb(${DELETED_MEMORY_LINE}::text) ELSE l END ORDER BY o), '[]'::jsonb)
          FROM jsonb_array_elements(${arrayOf(sql`t.trace->'memoryLines'`)}) WITH ORDINALITY AS e(l, o)
        ),
        'redactedMemoryIds', (
          SELECT coalesce(jsonb_agg(DISTINCT id ORDER BY id), '[]'::jsonb) FROM (
            SELECT jsonb_array_elements_text(${arrayOf(sql`t.trace->'redactedMemoryIds'`)}) AS id
            UNION
            SELECT c->>'memoryId' FROM jsonb_array_elements(${candidates}) c WHERE c->>'memoryId' = ANY(g.ids)
            UNION
            SELECT r->>'memoryId' FROM jsonb_array_elements(${arrayOf(sql`t.trace->'toolCalls'`)}) tc,
                                       jsonb_array_elements(${arrayOf(sql`tc->'memories'`)}) r
            WHERE r->>'memoryId' = ANY(g.ids)
          ) ids
        )
      ) || CASE WHEN jsonb_typeof(t.trace->'toolCalls') = 'array' THEN jsonb_build_object(
        'toolCalls', (
          SELECT coalesce(jsonb_agg(
            CASE WHEN jsonb_typeof(tc->'memories') = 'array' THEN tc || jsonb_build_object('memories', (
              SELECT coalesce(jsonb_agg(
                CASE WHEN r->>'memoryId' = ANY(g.ids) THEN r || jsonb_build_object(
                  'title', 'null'::jsonb, 'content', ${DELETED_MEMORY}::text, 'redacted', true)
                ELSE r END ORDER BY ro), '[]'::jsonb)
              FROM jsonb_array_elements(tc->'memories') WITH ORDINALITY AS x(r, ro)
            )) ELSE tc END ORDER BY tco), '[]'::jsonb)
          FROM jsonb_array_elements(t.trace->'toolCalls') WITH ORDINALITY AS y(tc, tco)
        )) ELSE '{}'::jsonb END,
      model_input = CASE WHEN cardinality(t.lines) = 0 AND NOT t.tool_hit THEN t.model_input ELSE (
        SELECT coalesce(jsonb_agg(
          CASE WHEN jsonb_typeof(call->'params'->'prompt') = 'array' THEN jsonb_set(call, '{params,prompt}', (
            SELECT coalesce(jsonb_agg(
              CASE WHEN m->>'role' = 'system' AND jsonb_typeof(m->'content') = 'string' THEN jsonb_set(m, '{content}', to_jsonb(coalesce((
                SELECT string_agg(CASE WHEN l = ANY(t.lines) THEN ${DELETED_MEMORY_LINE}::text ELSE l END, E'\n' ORDER BY o)
                FROM unnest(string_to_array(m->>'content', E'\n')) WITH ORDINALITY AS u(l, o)
              ), '')))
              -- A memory tool's result: the deleted memories' entries lose their title and text.
              WHEN m->>'role' = 'tool' AND jsonb_typeof(m->'content') = 'array' THEN jsonb_set(m, '{content}', (
                SELECT coalesce(jsonb_agg(
                  CASE WHEN jsonb_typeof(part->'output'->'value'->'memories') = 'array'
                  THEN jsonb_set(part, '{output,value,memories}', (
                    SELECT coalesce(jsonb_agg(
                      CASE WHEN mem->>'id' = ANY(g.ids)
                      THEN mem || jsonb_build_object('title', 'null'::jsonb, 'content', ${DELETED_MEMORY}::text)
                      ELSE mem END ORDER BY memo), '[]'::jsonb)
                    FROM jsonb_array_elements(part->'output'->'value'->'memories') WITH ORDINALITY AS q(mem, memo)
                  ))
                  ELSE part END ORDER BY parto), '[]'::jsonb)
                FROM jsonb_array_elements(m->'content') WITH ORDINALITY AS pp(part, parto)
              ))
              ELSE m END ORDER BY mo), '[]'::jsonb)
            FROM jsonb_array_elements(${arrayOf(sql`call->'params'->'prompt'`)}) WITH ORDINALITY AS pm(m, mo)
          ))
          ELSE call END ORDER BY co), '[]'::jsonb)
        FROM jsonb_array_elements(${arrayOf(sql`t.model_input`)}) WITH ORDINALITY AS ci(call, co)
      ) END,
      updated_at = now()
    FROM target t, gone g
    WHERE p.id = t.id AND p.user_id = ${scope.userId}::uuid`);
}

export async function redactExtractionDecisions(db: Db, scope: RedactionScope): Promise<void> {
  if (scope.memoryIds.length === 0) return;
  await withoutJit(db);
  const decisions = arrayOf(sql`t.decisions`);
  /** As consolidation tells a repeated candidate. */
  const normalised = (text: SQL) => sql`lower(btrim(regexp_replace(${text}, '\\s+', ' ', 'g')))`;
  const touched = sql`(d->>'memoryId' = ANY(g.ids) OR d->>'targetId' = ANY(g.ids))`;
  const candidateGoes = sql`(d->>'memoryId' = ANY(g.ids)
    OR (d->>'memoryId' IS NULL AND ${normalised(sql`d->'candidate'->>'content'`)} = ANY(t.contents)))`;
  const nearGoes = sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${arrayOf(sql`d->'near'`)}) n WHERE n->>'id' = ANY(g.ids))`;
  await db.execute(sql`
    WITH ${goneCte(scope.memoryIds)},
    target AS (
      SELECT x.id, x.decisions,
             ARRAY(
               SELECT ${normalised(sql`d->'candidate'->>'content'`)} FROM jsonb_array_elements(${arrayOf(sql`x.decisions`)}) d
               WHERE d->>'memoryId' = ANY(g.ids) AND d->'candidate'->>'content' IS NOT NULL
             ) AS contents
      FROM memory_extractions x, gone g
      WHERE x.user_id = ${scope.userId}::uuid
        ${scope.extractionId ? sql`AND x.id = ${scope.extractionId}::uuid` : sql``}
        AND EXISTS (
          SELECT 1 FROM jsonb_array_elements(${arrayOf(sql`x.decisions`)}) d
          WHERE ${touched} OR ${nearGoes}
        )
      FOR UPDATE OF x
    )
    UPDATE memory_extractions x SET
      decisions = (
        SELECT coalesce(jsonb_agg(
          CASE WHEN ${touched} OR ${candidateGoes} OR ${nearGoes} THEN d || jsonb_build_object(
            'candidate', CASE WHEN ${candidateGoes} AND jsonb_typeof(d->'candidate') = 'object'
              THEN d->'candidate' || jsonb_build_object(
                'title', 'null'::jsonb, 'content', ${DELETED_MEMORY}::text, 'evidence', '[]'::jsonb)
              ELSE d->'candidate' END,
            'reason', CASE WHEN ${touched} OR ${candidateGoes} THEN to_jsonb(${REDACTED_REASON}::text) ELSE d->'reason' END,
            'near', (
              SELECT coalesce(jsonb_agg(
                CASE WHEN n->>'id' = ANY(g.ids) THEN n || jsonb_build_object(
                  'title', 'null'::jsonb, 'content', ${DELETED_MEMORY}::text, 'redacted', true)
                ELSE n END ORDER BY no), '[]'::jsonb)
              FROM jsonb_array_elements(${arrayOf(sql`d->'near'`)}) WITH ORDINALITY AS ne(n, no)
            ),
            'redacted', true)
          ELSE d END ORDER BY o), '[]'::jsonb)
        FROM jsonb_array_elements(${decisions}) WITH ORDINALITY AS e(d, o)
      ),
      updated_at = now()
    FROM target t, gone g
    WHERE x.id = t.id AND x.user_id = ${scope.userId}::uuid`);
}

export async function redactEventReasons(db: Db, scope: Pick<RedactionScope, "userId" | "memoryIds">): Promise<void> {
  if (scope.memoryIds.length === 0) return;
  await db.execute(sql`
    WITH ${goneCte(scope.memoryIds)}
    UPDATE memory_events e SET reason = ${REDACTED_REASON}::text
    FROM gone g
    WHERE e.user_id = ${scope.userId}::uuid
      AND e.reason IS NOT NULL
      AND e.reason <> ${REDACTED_REASON}::text
      AND NOT (e.memory_id::text = ANY(g.ids))
      AND EXISTS (SELECT 1 FROM unnest(g.ids) AS id WHERE strpos(e.reason, id) > 0)`);
}

/** Call in the delete's transaction, after the memories are marked deleted or erased. */
export async function redactDeletedMemories(db: Db, scope: Pick<RedactionScope, "userId" | "memoryIds">) {
  await redactPromptDebug(db, scope);
  // Before the decisions: it reads their candidates as they were.
  await redactExtractionInputs(db, scope);
  await redactExtractionDecisions(db, scope);
  await redactEventReasons(db, scope);
  await redactMcpCalls(db, scope);
}

/** A trace is JSON: anything that is not a well-formed id is not a memory. */
export function validMemoryIds(ids: readonly string[]): string[] {
  return [...new Set(ids.filter((id) => UUID.test(id)))];
}

/**
 * Memories whose text a record may keep (not deleted, or inside the undo window), locked FOR KEY SHARE in id
 * order: it waits for a delete in progress and makes a later one wait, without blocking memory_usage updates.
 * The one lock rule of write-time redaction.
 */
export function lockedLiveMemories(userId: string, memoryIds: readonly string[]): SQL {
  return sql`SELECT id FROM memories
             WHERE user_id = ${userId}::uuid AND id = ANY(${`{${memoryIds.join(",")}}`}::uuid[])
               AND (status <> 'deleted' OR redact_at IS NOT NULL)
             ORDER BY id
             FOR KEY SHARE`;
}

/**
 * Rows are locked FOR UPDATE SKIP LOCKED: an undo or "delete now" holding one finishes first and the next sweep
 * sees the outcome. The lock also waits for a record being written with the text, which this pass then redacts.
 */
export async function redactDueDeletions(db: Db, { now, batch }: { now: Date; batch: number }): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const due = await selectRows<{ id: string; user_id: string }>(
        tx,
        sql`SELECT id, user_id FROM memories
            WHERE redact_at IS NOT NULL AND redact_at <= ${now.toISOString()}::timestamptz AND status = 'deleted'
            ORDER BY redact_at, id
            LIMIT ${batch}
            FOR UPDATE SKIP LOCKED`,
      );
      const byUser = new Map<string, string[]>();
      for (const row of due) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.id]);
      for (const [userId, memoryIds] of byUser) await redactDeletedMemories(tx, { userId, memoryIds });
      if (due.length > 0) {
        await tx.execute(
          sql`UPDATE memories SET redact_at = NULL WHERE id = ANY(${`{${due.map((row) => row.id).join(",")}}`}::uuid[])`,
        );
      }
      return due.length;
    });
    total += done;
    if (done < batch) return total;
  }
}

/** Call inside the transaction that writes a derived record. */
export async function lockGoneMemories(
  db: Db,
  { userId, memoryIds }: { userId: string; memoryIds: readonly string[] },
): Promise<string[]> {
  const ids = validMemoryIds(memoryIds);
  if (ids.length === 0) return [];
  const live = new Set((await selectRows<{ id: string }>(db, lockedLiveMemories(userId, ids))).map((row) => row.id));
  return ids.filter((id) => !live.has(id));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const stringsOf = (values: unknown[]) => values.filter((value): value is string => typeof value === "string");

export function traceMemoryIds(trace: unknown): string[] {
  if (!isRecord(trace)) return [];
  const candidates = Array.isArray(trace.candidates) ? trace.candidates : [];
  const toolRows = (Array.isArray(trace.toolCalls) ? trace.toolCalls : []).flatMap((call) =>
    isRecord(call) && Array.isArray(call.memories) ? call.memories : [],
  );
  return stringsOf([...candidates, ...toolRows].map((row) => (isRecord(row) ? row.memoryId : null)));
}

export function decisionMemoryIds(decisions: readonly unknown[]): string[] {
  return stringsOf(
    decisions.flatMap((decision) =>
      isRecord(decision)
        ? [
            decision.memoryId,
            decision.targetId,
            ...(Array.isArray(decision.near) ? decision.near.map((near) => (isRecord(near) ? near.id : null)) : []),
          ]
        : [],
    ),
  );
}
