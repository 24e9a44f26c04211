/**
 * A batch writes its conversations (archived, read-only), messages and one queued extraction per exchange in
 * one transaction, so a failed batch writes nothing. Re-importing adds only messages found neither by export id
 * nor by content hash (content-hash.ts).
 */
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { importConfig } from "@/core/config";
import { AppError } from "@/core/errors";
import type { Db } from "@/db/client";
import {
  conversations,
  type ExtractionStatus,
  type ImportSourceKind,
  type ImportStatus,
  type ImportSummary,
  imports,
  memoryEvents,
  memoryExtractions,
  messages,
} from "@/db/schema";
import { messageContentHash } from "./content-hash";

export type ImportRow = typeof imports.$inferSelect;

const notFound = () => new AppError("not_found:import", "Import not found");

export interface BatchMessage {
  /** Absent: the message is found again by its content hash only. */
  sourceId?: string;
  role: "user" | "assistant";
  text: string;
  createdAt: string;
}

export interface BatchConversation {
  sourceId: string;
  title: string;
  createdAt: string;
  messages: BatchMessage[];
}

export interface BatchResult {
  conversationsAdded: number;
  messagesAdded: number;
  /** From an earlier import or batch. */
  messagesAlreadyImported: number;
  exchangesQueued: number;
}

export async function createImport(
  db: Db,
  input: { userId: string; source: ImportSourceKind; fileName: string; keepConversations?: boolean },
): Promise<ImportRow> {
  const [row] = await db.insert(imports).values(input).returning();
  if (!row) throw new Error("the import row was not written");
  return row;
}

export async function getImport(
  db: Db,
  { userId, importId }: { userId: string; importId: string },
): Promise<ImportRow> {
  const [row] = await db
    .select()
    .from(imports)
    .where(and(eq(imports.id, importId), eq(imports.userId, userId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** No owner filter: the row is the job's input. */
export async function getImportForJob(db: Db, { importId }: { importId: string }): Promise<ImportRow | null> {
  const [row] = await db.select().from(imports).where(eq(imports.id, importId)).limit(1);
  return row ?? null;
}

/** 409 once the import has started. */
export async function addImportBatch(
  db: Db,
  input: { userId: string; importId: string; conversations: BatchConversation[]; runner: string },
): Promise<BatchResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(imports)
      .where(and(eq(imports.id, input.importId), eq(imports.userId, input.userId)))
      .for("update")
      .limit(1);
    if (!row) throw notFound();
    if (row.status !== "receiving") {
      throw new AppError(
        "conflict:import_started",
        "This import has started: it takes no more conversations. Start a new import.",
      );
    }
    const result: BatchResult = {
      conversationsAdded: 0,
      messagesAdded: 0,
      messagesAlreadyImported: 0,
      exchangesQueued: 0,
    };
    for (const conversation of input.conversations) {
      await addConversation(tx, { ...input, source: row.source, conversation, result });
    }
    await tx.update(imports).set({ updatedAt: sql`now()` }).where(eq(imports.id, row.id));
    return result;
  });
}

async function addConversation(
  tx: Db,
  input: {
    userId: string;
    importId: string;
    source: ImportSourceKind;
    runner: string;
    conversation: BatchConversation;
    result: BatchResult;
  },
): Promise<void> {
  const { userId, conversation, result } = input;
  const lastAt = new Date(conversation.messages.at(-1)?.createdAt ?? conversation.createdAt);
  const hashes = conversation.messages.map((message) => messageContentHash(message));
  const bySourceId = () =>
    tx
      .select({ id: conversations.id, currentMessageId: conversations.currentMessageId })
      .from(conversations)
      .where(
        and(
          eq(conversations.userId, userId),
          eq(conversations.importedFrom, input.source),
          eq(conversations.sourceId, conversation.sourceId),
        ),
      )
      .for("update")
      .limit(1);
  // Re-exported under another id, the conversation is the one holding most of these messages' hashes.
  const byContentHash = () =>
    tx
      .select({ id: conversations.id, currentMessageId: conversations.currentMessageId })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(
        and(
          eq(messages.userId, userId),
          inArray(messages.contentHash, hashes),
          eq(conversations.importedFrom, input.source),
        ),
      )
      .groupBy(conversations.id)
      .orderBy(desc(sql`count(*)`), asc(conversations.id))
      .limit(1);
  let [target] = await bySourceId();
  if (!target) [target] = await byContentHash();
  if (!target) {
    const [inserted] = await tx
      .insert(conversations)
      .values({
        userId,
        title: conversation.title,
        archived: true,
        importedFrom: input.source,
        sourceId: conversation.sourceId,
        importId: input.importId,
        createdAt: new Date(conversation.createdAt),
        updatedAt: lastAt,
      })
      .onConflictDoNothing({
        target: [conversations.userId, conversations.importedFrom, conversations.sourceId],
        where: sql`${conversations.sourceId} IS NOT NULL`,
      })
      .returning({ id: conversations.id, currentMessageId: conversations.currentMessageId });
    if (inserted) result.conversationsAdded += 1;
    target = inserted ?? (await bySourceId())[0];
  }
  if (!target) throw new Error("the imported conversation could not be read back");
  const conversationId = target.id;

  const sourceIds = conversation.messages.flatMap((message) => (message.sourceId ? [message.sourceId] : []));
  const existing = await tx
    .select({ id: messages.id, sourceId: messages.sourceId, contentHash: messages.contentHash })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        or(
          sourceIds.length > 0 ? inArray(messages.sourceId, sourceIds) : undefined,
          inArray(messages.contentHash, hashes),
        ),
      ),
    )
    .orderBy(asc(messages.createdAt), asc(messages.id));
  const known = new Map(existing.flatMap((message) => (message.sourceId ? [[message.sourceId, message.id]] : [])));
  // Each stored message answers for one incoming message: the same words twice at one time are two messages.
  const byHash = new Map<string, string[]>();
  for (const message of existing) {
    if (message.contentHash) byHash.set(message.contentHash, [...(byHash.get(message.contentHash) ?? []), message.id]);
  }
  const used = new Set<string>();
  const findKnown = (message: BatchMessage, hash: string): string | undefined => {
    const bySource = message.sourceId ? known.get(message.sourceId) : undefined;
    if (bySource && !used.has(bySource)) return bySource;
    return byHash.get(hash)?.find((id) => !used.has(id));
  };

  let parentId: string | null = target.currentMessageId;
  const ids: string[] = [];
  const fresh = new Set<string>();
  const rows: (typeof messages.$inferInsert)[] = [];
  for (const [index, message] of conversation.messages.entries()) {
    const hash = hashes[index] ?? messageContentHash(message);
    const found = findKnown(message, hash);
    if (found) {
      used.add(found);
      result.messagesAlreadyImported += 1;
      ids.push(found);
      parentId = found;
      continue;
    }
    const id = randomUUID();
    used.add(id);
    if (message.sourceId) known.set(message.sourceId, id);
    byHash.set(hash, [...(byHash.get(hash) ?? []), id]);
    fresh.add(id);
    ids.push(id);
    const createdAt = new Date(message.createdAt);
    rows.push({
      id,
      userId,
      conversationId,
      parentMessageId: parentId,
      role: message.role,
      content: message.text,
      parts: [{ type: "text", text: message.text }],
      status: "complete",
      sourceId: message.sourceId ?? null,
      contentHash: hash,
      createdAt,
      updatedAt: createdAt,
    });
    parentId = id;
  }
  if (rows.length === 0) return;
  await tx.insert(messages).values(rows);
  result.messagesAdded += rows.length;

  const exchanges: (typeof memoryExtractions.$inferInsert)[] = [];
  conversation.messages.forEach((message, i) => {
    const next = conversation.messages[i + 1];
    const userMessageId = ids[i];
    const assistantMessageId = ids[i + 1];
    if (message.role !== "user" || next?.role !== "assistant" || !userMessageId || !assistantMessageId) return;
    if (!fresh.has(userMessageId) && !fresh.has(assistantMessageId)) return;
    exchanges.push({
      userId,
      conversationId,
      userMessageId,
      assistantMessageId,
      status: "queued",
      runner: input.runner,
      importId: input.importId,
    });
  });
  if (exchanges.length > 0) {
    const queued = await tx
      .insert(memoryExtractions)
      .values(exchanges)
      .onConflictDoNothing({ target: [memoryExtractions.userMessageId, memoryExtractions.assistantMessageId] })
      .returning({ id: memoryExtractions.id });
    result.exchangesQueued += queued.length;
  }
  await tx
    .update(conversations)
    .set({
      currentMessageId: parentId,
      updatedAt: sql`greatest(${conversations.updatedAt}, ${lastAt.toISOString()}::timestamptz)`,
    })
    .where(eq(conversations.id, conversationId));
}

export async function startImport(
  db: Db,
  { userId, importId, now }: { userId: string; importId: string; now: Date },
): Promise<{ row: ImportRow; started: boolean }> {
  const [updated] = await db
    .update(imports)
    .set({ status: "running", startedAt: now, updatedAt: now })
    .where(and(eq(imports.id, importId), eq(imports.userId, userId), eq(imports.status, "receiving")))
    .returning();
  if (updated) return { row: updated, started: true };
  return { row: await getImport(db, { userId, importId }), started: false };
}

export type ImportAction = "pause" | "resume" | "cancel";

const TRANSITIONS: Record<ImportAction, { from: ImportStatus[]; to: ImportStatus }> = {
  pause: { from: ["running"], to: "paused" },
  resume: { from: ["paused"], to: "running" },
  cancel: { from: ["receiving", "running", "paused"], to: "cancelled" },
};

/**
 * Pauses, resumes or cancels the user's import in one guarded UPDATE: 404 for another user's, 409
 * when its status does not allow it (a done import cannot be paused, a cancelled one not resumed).
 * The job checks the status before each exchange, so a pause or a cancel takes effect after the
 * exchange in hand; a resumed import's job must be dispatched again by the caller.
 */
export async function changeImportState(
  db: Db,
  { userId, importId, action, now }: { userId: string; importId: string; action: ImportAction; now: Date },
): Promise<ImportRow> {
  const { from, to } = TRANSITIONS[action];
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(imports)
      .set({ status: to, updatedAt: now, ...(to === "cancelled" ? { finishedAt: now } : {}) })
      .where(and(eq(imports.id, importId), eq(imports.userId, userId), inArray(imports.status, from)))
      .returning();
    return row && to === "cancelled" && !row.keepConversations ? discardConversations(tx, row) : row;
  });
  if (updated) return updated;
  const row = await getImport(db, { userId, importId });
  throw new AppError("conflict:import_state", `This import is ${row.status}: it cannot be ${PAST[action]}.`);
}

const PAST: Record<ImportAction, string> = { pause: "paused", resume: "resumed", cancel: "cancelled" };

/** Fewest attempts first, then in the order the exchanges were said, so consolidation meets a fact before its change. */
export async function nextImportExtraction(
  db: Db,
  { importId }: { importId: string },
): Promise<{ extractionId: string; userId: string } | null> {
  const [row] = await db
    .select({ extractionId: memoryExtractions.id, userId: memoryExtractions.userId })
    .from(memoryExtractions)
    .innerJoin(imports, and(eq(imports.id, memoryExtractions.importId), eq(imports.status, "running")))
    .innerJoin(messages, eq(messages.id, memoryExtractions.userMessageId))
    .where(and(eq(memoryExtractions.importId, importId), inArray(memoryExtractions.status, ["queued", "running"])))
    .orderBy(asc(memoryExtractions.attempts), asc(messages.createdAt), asc(memoryExtractions.id))
    .limit(1);
  return row ?? null;
}

export async function finishImport(
  db: Db,
  { importId, now }: { importId: string; now: Date },
): Promise<ImportStatus | null> {
  const finished = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(imports)
      .set({ status: "done", finishedAt: now, updatedAt: now })
      .where(
        and(
          eq(imports.id, importId),
          eq(imports.status, "running"),
          sql`NOT EXISTS (SELECT 1 FROM ${memoryExtractions} WHERE ${memoryExtractions.importId} = ${importId} AND ${memoryExtractions.status} IN ('queued', 'running'))`,
        ),
      )
      .returning();
    return row && !row.keepConversations ? discardConversations(tx, row) : row;
  });
  return finished?.status ?? (await getImportForJob(db, { importId }))?.status ?? null;
}

/**
 * An import not kept, once done or cancelled, in the transaction that ended it: its progress is kept on the
 * row, each memory read from it keeps where it was said (`imported_source`) and each history event it wrote
 * keeps the import's id (undo finds them by it), then its conversations go, and with them their messages,
 * extractions and records. Its extraction rows are locked first, the order a store in flight takes them in.
 */
async function discardConversations(tx: Db, row: ImportRow): Promise<ImportRow> {
  const progress = await progressOf(tx, row);
  const extractionIds = (
    await tx
      .select({ id: memoryExtractions.id })
      .from(memoryExtractions)
      .where(and(eq(memoryExtractions.importId, row.id), eq(memoryExtractions.userId, row.userId)))
      .orderBy(asc(memoryExtractions.id))
      .for("update")
  ).map((r) => r.id);
  if (extractionIds.length > 0) {
    await tx
      .update(memoryEvents)
      .set({ importId: row.id })
      .where(and(eq(memoryEvents.userId, row.userId), inArray(memoryEvents.extractionId, extractionIds)));
  }
  // Detached here, not left to ON DELETE SET NULL: that would re-check the other references of a row this
  // transaction wrote, to messages the same delete removes, and fail.
  await tx.execute(sql`
    UPDATE memories m SET source_conversation_id = NULL, source_user_message_id = NULL,
      source_assistant_message_id = NULL, imported_source = jsonb_build_object(
      'from', c.imported_from,
      'conversationTitle', c.title,
      'saidAt', to_char(
        coalesce((SELECT u.created_at FROM messages u WHERE u.id = m.source_user_message_id), c.created_at)
          AT TIME ZONE 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
      )
    )
    FROM conversations c
    WHERE c.id = m.source_conversation_id AND c.import_id = ${row.id} AND c.user_id = ${row.userId}
      AND m.user_id = ${row.userId}`);
  await tx.delete(conversations).where(and(eq(conversations.importId, row.id), eq(conversations.userId, row.userId)));
  const summary: ImportSummary = {
    conversations: progress.conversations,
    exchanges: progress.exchanges,
    memoriesFound: progress.memoriesFound,
    failures: progress.failures.map(({ extractionId, conversationTitle, error }) => ({
      extractionId,
      conversationTitle,
      error,
    })),
  };
  const [updated] = await tx.update(imports).set({ summary }).where(eq(imports.id, row.id)).returning();
  if (!updated) throw new Error("the import row vanished under its lock");
  return updated;
}

/**
 * Running imports with nothing done since `before`, and when they last moved: the row (a start, a resume) or any of
 * its exchanges (claimed, finished, failed). That time names a hand-over, so the same stall is handed over once.
 */
export async function listStalledImports(
  db: Db,
  { before, limit }: { before: Date; limit: number },
): Promise<{ importId: string; userId: string; progressAt: Date }[]> {
  // greatest() skips the NULL of an import with no exchanges. The subquery's columns are named by its alias: a
  // column of this one-table select renders unqualified and would resolve to memory_extractions inside it.
  const progressAt = sql<Date>`greatest(${imports.updatedAt}, (
    SELECT max(e.updated_at) FROM ${memoryExtractions} e WHERE e.import_id = ${imports}.id
  ))`.mapWith(imports.updatedAt);
  return db
    .select({ importId: imports.id, userId: imports.userId, progressAt })
    .from(imports)
    .where(and(eq(imports.status, "running"), sql`${progressAt} < ${before.toISOString()}::timestamptz`))
    .orderBy(progressAt)
    .limit(limit);
}

/** What a start of the in-process runner resumes. */
export async function listRunningImports(db: Db): Promise<{ importId: string; userId: string }[]> {
  return db
    .select({ importId: imports.id, userId: imports.userId })
    .from(imports)
    .where(eq(imports.status, "running"))
    .orderBy(asc(imports.createdAt));
}

export interface ImportProgress {
  id: string;
  source: ImportSourceKind;
  fileName: string;
  status: ImportStatus;
  /** false: its conversations are deleted once it is done or cancelled; its memories stay. */
  keepConversations: boolean;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  conversations: number;
  /** `done`: read (succeeded) or skipped, because memory was off for the chat when its turn came. */
  exchanges: { total: number; done: number; failed: number; skipped: number };
  /** The memories its exchanges added or updated (each once; a memory updated by several exchanges is one). */
  memoriesFound: number;
  /** At most 20. */
  failures: {
    extractionId: string;
    /**
     * Its exchange's answer: POST /api/messages/:id/extraction/retry reads the exchange again. Null once the
     * import's conversations were deleted (not kept), as is `conversationId`.
     */
    assistantMessageId: string | null;
    conversationId: string | null;
    conversationTitle: string;
    error: string | null;
  }[];
}

const FAILURES_SHOWN = 20;

/** The progress of an import row already read (and owned by the caller's user). */
export async function progressOf(db: Db, row: ImportRow): Promise<ImportProgress> {
  const about = {
    id: row.id,
    source: row.source,
    fileName: row.fileName,
    status: row.status,
    keepConversations: row.keepConversations,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
  // Its extractions went with its conversations.
  if (row.summary) {
    const { conversations, exchanges, memoriesFound, failures } = row.summary;
    return {
      ...about,
      conversations,
      // Rebuilt: jsonb keeps its keys in its own order. A summary saved before `skipped` was counted says 0.
      exchanges: {
        total: exchanges.total,
        done: exchanges.done,
        failed: exchanges.failed,
        skipped: exchanges.skipped ?? 0,
      },
      memoriesFound,
      failures: failures.map((failure) => ({ ...failure, assistantMessageId: null, conversationId: null })),
    };
  }
  const [counts, [written], failures, conversationCount] = await Promise.all([
    db
      .select({ status: memoryExtractions.status, count: sql<number>`count(*)::int` })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, row.id))
      .groupBy(memoryExtractions.status),
    // Each memory once, however many of the import's exchanges added to it.
    db
      .select({ memories: sql<number>`count(DISTINCT written.id)::int` })
      .from(sql`${memoryExtractions} CROSS JOIN LATERAL unnest(${memoryExtractions.memoryIds}) AS written(id)`)
      .where(eq(memoryExtractions.importId, row.id)),
    db
      .select({
        extractionId: memoryExtractions.id,
        assistantMessageId: memoryExtractions.assistantMessageId,
        conversationId: conversations.id,
        conversationTitle: conversations.title,
        error: memoryExtractions.lastError,
      })
      .from(memoryExtractions)
      .innerJoin(conversations, eq(conversations.id, memoryExtractions.conversationId))
      .where(and(eq(memoryExtractions.importId, row.id), eq(memoryExtractions.status, "failed")))
      .orderBy(asc(memoryExtractions.id))
      .limit(FAILURES_SHOWN),
    db
      .select({ count: sql<number>`count(DISTINCT ${memoryExtractions.conversationId})::int` })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, row.id)),
  ]);
  let total = 0;
  let done = 0;
  let failed = 0;
  let skipped = 0;
  for (const { status, count } of counts) {
    total += count;
    if (status === "succeeded" || status === "skipped") done += count;
    if (status === "failed") failed += count;
    if (status === "skipped") skipped += count;
  }
  return {
    ...about,
    conversations: conversationCount[0]?.count ?? 0,
    exchanges: { total, done, failed, skipped },
    memoriesFound: written?.memories ?? 0,
    failures,
  };
}

export async function getImportProgress(
  db: Db,
  { userId, importId }: { userId: string; importId: string },
): Promise<ImportProgress> {
  return progressOf(db, await getImport(db, { userId, importId }));
}

export async function listImports(
  db: Db,
  { userId, limit, underWay = false }: { userId: string; limit: number; underWay?: boolean },
): Promise<ImportProgress[]> {
  const rows = await db
    .select()
    .from(imports)
    .where(and(eq(imports.userId, userId), underWay ? inArray(imports.status, ["running", "paused"]) : undefined))
    .orderBy(desc(imports.createdAt), desc(imports.id))
    .limit(limit);
  return Promise.all(rows.map((row) => progressOf(db, row)));
}

/**
 * An imported conversation is read-only (docs/import.md): its answers were written by ChatGPT or Claude, so
 * Lifeline takes no turn in it and no rating or note on its messages — feedback on another assistant's answer
 * would be read as feedback on Lifeline's. Every refusal is this one 409, worded for what was asked.
 */
export const IMPORTED_READ_ONLY = {
  turn: "An imported conversation is read-only: start a new chat to go on from it.",
  rating: "An imported answer was written by another assistant, not by Lifeline: it cannot be rated here.",
  note: "An imported conversation is read-only: notes cannot be added to its messages.",
} as const;

export function importedConversationConflict(action: keyof typeof IMPORTED_READ_ONLY): AppError {
  return new AppError("conflict:imported_conversation", IMPORTED_READ_ONLY[action]);
}

export async function isImportedConversation(
  db: Db,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(
      and(
        eq(conversations.id, conversationId),
        eq(conversations.userId, userId),
        isNotNull(conversations.importedFrom),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** 409 conflict:imported_conversation, before anything is written. */
export async function assertNotImported(
  db: Db,
  { userId, conversationId, action }: { userId: string; conversationId: string; action: "rating" | "note" },
): Promise<void> {
  if (await isImportedConversation(db, { userId, conversationId })) throw importedConversationConflict(action);
}

export interface ImportPageExchange {
  extractionId: string;
  status: ExtractionStatus;
  attempts: number;
  lastError: string | null;
  memoryIds: string[];
  decisions: unknown[];
  userMessageId: string;
  /** The first IMPORT_PAGE.excerptChars characters. */
  userExcerpt: string;
  saidAt: Date;
  /** Its exchange's answer: the Inspect page (/messages/:id/debug) shows the extraction. */
  assistantMessageId: string;
}

export interface ImportPageConversation {
  id: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  /** This import's exchanges in the conversation; `exchanges` holds the first IMPORT_PAGE.exchanges of them. */
  exchangeCount: number;
  exchanges: ImportPageExchange[];
}

export const IMPORT_PAGE = importConfig.page;

/** The conversations an import's page lists: its extractions' (by memory_extractions_import_idx). */
function conversationsOfImport(db: Db, importId: string) {
  return db
    .selectDistinct({ conversationId: memoryExtractions.conversationId })
    .from(memoryExtractions)
    .where(eq(memoryExtractions.importId, importId))
    .as("of_import");
}

/**
 * How many pages the import's page has — one at least (an import without conversations says so on it), then
 * one per IMPORT_PAGE.conversations — or null when the import is not the user's.
 */
export async function importPageCount(
  db: Db,
  { userId, importId }: { userId: string; importId: string },
): Promise<number | null> {
  const [owned] = await db
    .select({ id: imports.id })
    .from(imports)
    .where(and(eq(imports.id, importId), eq(imports.userId, userId)));
  if (!owned) return null;
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(conversationsOfImport(db, importId));
  return Math.max(1, Math.ceil((count?.total ?? 0) / IMPORT_PAGE.conversations));
}

/**
 * One page of an import's conversations (in their original order) with the exchanges it queued in them, for
 * the import's page. The conversations are the import's extractions' (a re-import that adds messages to a
 * conversation an earlier import brought lists it too): read by import (memory_extractions_import_idx), and a
 * page's exchanges by import and conversation (memory_extractions_import_conversation_idx); a page holds at
 * most IMPORT_PAGE.conversations × IMPORT_PAGE.exchanges exchanges. 404 for another user's import.
 */
export async function listImportPage(
  db: Db,
  { userId, importId, page }: { userId: string; importId: string; page: number },
): Promise<{ import: ImportRow; total: number; offset: number; conversations: ImportPageConversation[] }> {
  const row = await getImport(db, { userId, importId });
  const offset = (page - 1) * IMPORT_PAGE.conversations;
  const ofImport = conversationsOfImport(db, row.id);
  const [[count], pageRows] = await Promise.all([
    db.select({ total: sql<number>`count(*)::int` }).from(ofImport),
    db
      .select({
        id: conversations.id,
        title: conversations.title,
        createdAt: conversations.createdAt,
        updatedAt: conversations.updatedAt,
      })
      .from(ofImport)
      .innerJoin(conversations, and(eq(conversations.id, ofImport.conversationId), eq(conversations.userId, userId)))
      .orderBy(asc(conversations.createdAt), asc(conversations.id))
      .limit(IMPORT_PAGE.conversations)
      .offset(offset),
  ]);
  if (pageRows.length === 0) return { import: row, total: count?.total ?? 0, offset, conversations: [] };

  const ranked = db
    .select({
      extractionId: sql<string>`${memoryExtractions.id}`.as("extraction_id"),
      conversationId: sql<string>`${memoryExtractions.conversationId}`.as("conversation_id"),
      status: sql<ExtractionStatus>`${memoryExtractions.status}`.as("status"),
      attempts: sql<number>`${memoryExtractions.attempts}`.as("attempts"),
      lastError: sql<string | null>`${memoryExtractions.lastError}`.as("last_error"),
      memoryIds: sql<string[]>`${memoryExtractions.memoryIds}`.as("memory_ids"),
      decisions: sql<unknown[]>`${memoryExtractions.decisions}`.as("decisions"),
      userMessageId: sql<string>`${messages.id}`.as("user_message_id"),
      userExcerpt: sql<string>`left(${messages.content}, ${IMPORT_PAGE.excerptChars})`.as("user_excerpt"),
      saidAt: sql<Date>`${messages.createdAt}`.as("said_at"),
      assistantMessageId: sql<string>`${memoryExtractions.assistantMessageId}`.as("assistant_message_id"),
      position:
        sql<number>`row_number() OVER (PARTITION BY ${memoryExtractions.conversationId} ORDER BY ${messages.createdAt}, ${memoryExtractions.id})::int`.as(
          "position",
        ),
      exchangeCount: sql<number>`(count(*) OVER (PARTITION BY ${memoryExtractions.conversationId}))::int`.as(
        "exchange_count",
      ),
    })
    .from(memoryExtractions)
    .innerJoin(messages, eq(messages.id, memoryExtractions.userMessageId))
    .where(
      and(
        eq(memoryExtractions.importId, row.id),
        inArray(
          memoryExtractions.conversationId,
          pageRows.map((conversation) => conversation.id),
        ),
      ),
    )
    .as("ranked");
  const exchangeRows = await db
    .select()
    .from(ranked)
    .where(sql`${ranked.position} <= ${IMPORT_PAGE.exchanges}`)
    .orderBy(asc(ranked.position));
  const byConversation = new Map(
    pageRows.map((conversation) => [
      conversation.id,
      { ...conversation, exchangeCount: 0, exchanges: [] as ImportPageExchange[] },
    ]),
  );
  for (const { conversationId, position: _, exchangeCount, saidAt, ...exchange } of exchangeRows) {
    const conversation = byConversation.get(conversationId);
    if (!conversation) continue;
    conversation.exchangeCount = exchangeCount;
    conversation.exchanges.push({ ...exchange, saidAt: new Date(saidAt) });
  }
  return { import: row, total: count?.total ?? 0, offset, conversations: [...byConversation.values()] };
}
