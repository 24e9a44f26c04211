/**
 * One row per (user message, assistant message) pair: its extraction's status, as data the user can see.
 *
 *   queued ──claim──▶ running ──store──▶ succeeded (memory_ids; empty = nothing worth keeping)
 *     ▲                  │
 *     └── failed attempt ┤ (attempts + 1, last_error; next_attempt_at when the in-process runner
 *         with retries   │  schedules the retry, null when Inngest does)
 *         left           └──▶ failed (attempts spent, or the job could not be dispatched) ──retry──▶ queued
 *   skipped: memory was off for the conversation; nothing runs.
 *
 * The job's queries take the extraction id (a job has no session) and read the owner from the row.
 */

import { and, asc, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { AppError } from "@/core/errors";
import type { Db } from "@/db/client";
import { conversations, type ExtractionStatus, memoryExtractions, messages, users } from "@/db/schema";
import { modelInputMemoryIds, redactExtractionInput } from "./extraction-input-redaction";
import { firstOr } from "./first";
import { listBranch } from "./messages";
import { decisionMemoryIds, lockGoneMemories, redactExtractionDecisions } from "./redaction";

export type Extraction = typeof memoryExtractions.$inferSelect;

export const RUNNABLE_STATUSES = ["queued", "running"] as const satisfies readonly ExtractionStatus[];

const noExtraction = () => new AppError("not_found:message", "No memory extraction for this message");

/**
 * The answer must be the question's child in the tree, so a foreign or mismatched pair inserts nothing
 * (`not_found:message`); a second call returns the existing row (`created: false`).
 */
export async function createExtraction(
  db: Db,
  input: {
    userId: string;
    conversationId: string;
    userMessageId: string;
    assistantMessageId: string;
    status: "queued" | "skipped";
    runner: string | null;
  },
): Promise<{ extraction: Extraction; created: boolean }> {
  const userMessage = alias(messages, "user_message");
  const assistantMessage = alias(messages, "assistant_message");
  const finished = input.status === "skipped";
  const [inserted] = await db
    .insert(memoryExtractions)
    .select(
      db
        .select({
          id: sql`gen_random_uuid()`.as("id"),
          userId: userMessage.userId,
          conversationId: userMessage.conversationId,
          userMessageId: userMessage.id,
          assistantMessageId: assistantMessage.id,
          status: sql`${input.status}::extraction_status`.as("status"),
          attempts: sql`0`.as("attempts"),
          lastError: sql`NULL::text`.as("last_error"),
          memoryIds: sql`'{}'::uuid[]`.as("memory_ids"),
          decisions: sql`'[]'::jsonb`.as("decisions"),
          modelInput: sql`'[]'::jsonb`.as("model_input"),
          runner: sql`${input.runner}::text`.as("runner"),
          queuedAt: sql`now()`.as("queued_at"),
          startedAt: sql`NULL::timestamptz`.as("started_at"),
          finishedAt: sql`${finished ? sql`now()` : sql`NULL::timestamptz`}`.as("finished_at"),
          nextAttemptAt: sql`NULL::timestamptz`.as("next_attempt_at"),
          importId: sql`NULL::uuid`.as("import_id"),
          createdAt: sql`now()`.as("created_at"),
          updatedAt: sql`now()`.as("updated_at"),
        })
        .from(userMessage)
        .innerJoin(
          assistantMessage,
          and(
            eq(assistantMessage.id, input.assistantMessageId),
            eq(assistantMessage.userId, input.userId),
            eq(assistantMessage.role, "assistant"),
            eq(assistantMessage.conversationId, input.conversationId),
            eq(assistantMessage.parentMessageId, userMessage.id),
          ),
        )
        .where(
          and(
            eq(userMessage.id, input.userMessageId),
            eq(userMessage.userId, input.userId),
            eq(userMessage.role, "user"),
            eq(userMessage.conversationId, input.conversationId),
          ),
        ),
    )
    .onConflictDoNothing({ target: [memoryExtractions.userMessageId, memoryExtractions.assistantMessageId] })
    .returning();
  if (inserted) return { extraction: inserted, created: true };

  const [existing] = await db
    .select()
    .from(memoryExtractions)
    .where(
      and(
        eq(memoryExtractions.userId, input.userId),
        eq(memoryExtractions.userMessageId, input.userMessageId),
        eq(memoryExtractions.assistantMessageId, input.assistantMessageId),
      ),
    )
    .limit(1);
  if (!existing) throw new AppError("not_found:message", "Message not found");
  return { extraction: existing, created: false };
}

/** No owner filter: the row is the job's input. */
export async function getExtraction(db: Db, { extractionId }: { extractionId: string }): Promise<Extraction | null> {
  const [row] = await db.select().from(memoryExtractions).where(eq(memoryExtractions.id, extractionId)).limit(1);
  return row ?? null;
}

export async function getExtractionForMessage(
  db: Db,
  { userId, assistantMessageId }: { userId: string; assistantMessageId: string },
): Promise<Extraction> {
  return firstOr(
    db
      .select()
      .from(memoryExtractions)
      .where(and(eq(memoryExtractions.assistantMessageId, assistantMessageId), eq(memoryExtractions.userId, userId)))
      .orderBy(desc(memoryExtractions.createdAt))
      .limit(1),
    () => noExtraction(),
  );
}

/** Read when a job or retry runs, not when it was queued. */
const conversationMemoryOn = sql`(SELECT c.memory_enabled FROM conversations c WHERE c.id = ${memoryExtractions.conversationId})`;

function unlessMemoryOff(status: "queued" | "running", now: Date) {
  return {
    status: sql`CASE WHEN ${conversationMemoryOn} THEN ${status} ELSE 'skipped' END::extraction_status`,
    finishedAt: sql`CASE WHEN ${conversationMemoryOn} THEN NULL ELSE ${now.toISOString()}::timestamptz END`,
  };
}

/** Also → skipped when memory was switched off since queueing. False: not runnable, the caller must stop. */
export async function claimExtraction(
  db: Db,
  { extractionId, runner, now }: { extractionId: string; runner: string; now: Date },
): Promise<boolean> {
  const [row] = await db
    .update(memoryExtractions)
    .set({ ...unlessMemoryOff("running", now), runner, startedAt: now, nextAttemptAt: null, updatedAt: now })
    .where(and(eq(memoryExtractions.id, extractionId), inArray(memoryExtractions.status, [...RUNNABLE_STATUSES])))
    .returning({ status: memoryExtractions.status });
  return row?.status === "running";
}

/**
 * The conversation row is share-locked until commit, so switching memory off waits for a store under way,
 * and a store after the switch sees it.
 */
export async function skipIfMemoryOff(db: Db, { extractionId, now }: { extractionId: string; now: Date }) {
  const [conversation] = await db
    .select({ memoryEnabled: conversations.memoryEnabled })
    .from(conversations)
    .innerJoin(memoryExtractions, eq(memoryExtractions.conversationId, conversations.id))
    .where(eq(memoryExtractions.id, extractionId))
    .for("share", { of: conversations });
  if (conversation?.memoryEnabled) return false;
  await db
    .update(memoryExtractions)
    .set({ status: "skipped", nextAttemptAt: null, finishedAt: now, updatedAt: now })
    .where(eq(memoryExtractions.id, extractionId));
  return true;
}

export interface FailedAttempt {
  status: "queued" | "failed";
  attempts: number;
  nextAttemptAt: Date | null;
}

/** `retryAt` null when the runner schedules retries itself. Null when the row is not runnable (nothing recorded). */
export async function recordFailedAttempt(
  db: Db,
  input: {
    extractionId: string;
    error: string;
    /** The attempt's model calls, the failing one last: the row shows them with its error until the next attempt ends. */
    modelInput: readonly unknown[];
    maxAttempts: number;
    retryAt: (failedAttempts: number) => Date | null;
    now: Date;
  },
): Promise<FailedAttempt | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ attempts: memoryExtractions.attempts, userId: memoryExtractions.userId })
      .from(memoryExtractions)
      .where(
        and(eq(memoryExtractions.id, input.extractionId), inArray(memoryExtractions.status, [...RUNNABLE_STATUSES])),
      )
      .for("update");
    if (!row) return null;
    const attempts = row.attempts + 1;
    const spent = attempts >= input.maxAttempts;
    const result: FailedAttempt = spent
      ? { status: "failed", attempts, nextAttemptAt: null }
      : { status: "queued", attempts, nextAttemptAt: input.retryAt(attempts) };
    const gone = await lockGoneMemories(tx, { userId: row.userId, memoryIds: modelInputMemoryIds(input.modelInput) });
    await tx
      .update(memoryExtractions)
      .set({
        ...result,
        lastError: input.error,
        modelInput: redactExtractionInput(input.modelInput, [], gone),
        finishedAt: spent ? input.now : null,
        updatedAt: input.now,
      })
      .where(eq(memoryExtractions.id, input.extractionId));
    return result;
  });
}

/** Without counting an attempt: the job could not be dispatched, or Inngest's onFailure gave up. */
export async function markExtractionFailed(
  db: Db,
  { extractionId, error, now }: { extractionId: string; error: string; now: Date },
): Promise<boolean> {
  const [row] = await db
    .update(memoryExtractions)
    .set({ status: "failed", lastError: error, nextAttemptAt: null, finishedAt: now, updatedAt: now })
    .where(and(eq(memoryExtractions.id, extractionId), inArray(memoryExtractions.status, [...RUNNABLE_STATUSES])))
    .returning({ id: memoryExtractions.id });
  return row !== undefined;
}

export async function lockExtraction(db: Db, { extractionId }: { extractionId: string }): Promise<Extraction | null> {
  const [row] = await db.select().from(memoryExtractions).where(eq(memoryExtractions.id, extractionId)).for("update");
  return row ?? null;
}

/**
 * A memory deleted since the plan was made is redacted from the decisions and the model input at once; the others
 * are held until commit.
 */
export async function completeExtraction(
  db: Db,
  input: {
    extractionId: string;
    memoryIds: string[];
    decisions: readonly unknown[];
    /** Every model call behind the decisions, as captured (lib/ai/capture.ts). */
    modelInput: readonly unknown[];
    now: Date;
  },
): Promise<void> {
  const [owner] = await db
    .select({ userId: memoryExtractions.userId })
    .from(memoryExtractions)
    .where(eq(memoryExtractions.id, input.extractionId));
  const gone = owner
    ? await lockGoneMemories(db, {
        userId: owner.userId,
        memoryIds: [...decisionMemoryIds(input.decisions), ...modelInputMemoryIds(input.modelInput)],
      })
    : [];
  await db
    .update(memoryExtractions)
    .set({
      status: "succeeded",
      attempts: sql`${memoryExtractions.attempts} + 1`,
      memoryIds: input.memoryIds,
      decisions: [...input.decisions],
      modelInput: redactExtractionInput(input.modelInput, input.decisions, gone),
      lastError: null,
      nextAttemptAt: null,
      finishedAt: input.now,
      updatedAt: input.now,
    })
    .where(eq(memoryExtractions.id, input.extractionId));
  if (owner && gone.length > 0) {
    await redactExtractionDecisions(db, { userId: owner.userId, memoryIds: gone, extractionId: input.extractionId });
  }
}

/** The last error stays visible until the next attempt ends; 409 when the extraction is not failed. */
export async function requeueFailedExtraction(
  db: Db,
  {
    userId,
    assistantMessageId,
    runner,
    now,
  }: { userId: string; assistantMessageId: string; runner: string; now: Date },
): Promise<Extraction> {
  const current = await getExtractionForMessage(db, { userId, assistantMessageId });
  const [row] = await db
    .update(memoryExtractions)
    .set({
      ...unlessMemoryOff("queued", now),
      attempts: 0,
      runner,
      queuedAt: now,
      nextAttemptAt: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(memoryExtractions.id, current.id),
        eq(memoryExtractions.userId, userId),
        eq(memoryExtractions.status, "failed"),
      ),
    )
    .returning();
  if (!row) {
    throw new AppError(
      "conflict:extraction_not_failed",
      `Only a failed extraction can be retried (this one is ${current.status})`,
    );
  }
  return row;
}

export interface ResumableExtraction {
  id: string;
  userId: string;
  status: ExtractionStatus;
  nextAttemptAt: Date | null;
}

/** What a restart resumes; an import's rows belong to its job (lib/jobs/import-job.ts). */
export async function listResumableExtractions(db: Db): Promise<ResumableExtraction[]> {
  return db
    .select({
      id: memoryExtractions.id,
      userId: memoryExtractions.userId,
      status: memoryExtractions.status,
      nextAttemptAt: memoryExtractions.nextAttemptAt,
    })
    .from(memoryExtractions)
    .where(and(inArray(memoryExtractions.status, [...RUNNABLE_STATUSES]), isNull(memoryExtractions.importId)))
    .orderBy(asc(memoryExtractions.queuedAt), asc(memoryExtractions.id));
}

/**
 * Rows queued before `before` and not touched since (a row a runner touched recently is its runner's). An
 * import's rows are its job's, never handed over here.
 */
export async function listUndispatchedExtractions(
  db: Db,
  { before, limit }: { before: Date; limit: number },
): Promise<Pick<Extraction, "id" | "userId" | "queuedAt">[]> {
  return db
    .select({ id: memoryExtractions.id, userId: memoryExtractions.userId, queuedAt: memoryExtractions.queuedAt })
    .from(memoryExtractions)
    .where(
      and(
        eq(memoryExtractions.status, "queued"),
        isNull(memoryExtractions.importId),
        lt(memoryExtractions.queuedAt, before),
        sql`coalesce(${memoryExtractions.nextAttemptAt}, ${memoryExtractions.updatedAt}) < ${before.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(memoryExtractions.queuedAt), asc(memoryExtractions.id))
    .limit(limit);
}

// Types, not interfaces: these travel through Inngest's step.run as JSON (see lib/jobs/steps.ts).
export type SourceMessage = {
  id: string;
  role: "user" | "assistant";
  content: string;
};

export type ExtractionSource = {
  extractionId: string;
  userId: string;
  userName: string | null;
  /** Relative dates ("by Friday") resolve in it; null: UTC. */
  userTimeZone: string | null;
  conversationId: string;
  userMessage: SourceMessage;
  assistantMessage: SourceMessage;
  previous: SourceMessage[];
  /** An imported exchange's original time (ISO): its relative dates resolve from it. */
  importedSaidAt: string | null;
};

export async function loadExtractionSource(
  db: Db,
  { extractionId, previousMessages }: { extractionId: string; previousMessages: number },
): Promise<ExtractionSource | null> {
  const userMessage = alias(messages, "user_message");
  const assistantMessage = alias(messages, "assistant_message");
  const [pair] = await db
    .select({
      userId: memoryExtractions.userId,
      userName: users.name,
      userTimeZone: users.timeZone,
      conversationId: memoryExtractions.conversationId,
      userMessageId: userMessage.id,
      userContent: userMessage.content,
      userParentId: userMessage.parentMessageId,
      assistantMessageId: assistantMessage.id,
      assistantContent: assistantMessage.content,
      importId: memoryExtractions.importId,
      userCreatedAt: userMessage.createdAt,
    })
    .from(memoryExtractions)
    .innerJoin(users, eq(users.id, memoryExtractions.userId))
    .innerJoin(
      userMessage,
      and(eq(userMessage.id, memoryExtractions.userMessageId), eq(userMessage.userId, memoryExtractions.userId)),
    )
    .innerJoin(
      assistantMessage,
      and(
        eq(assistantMessage.id, memoryExtractions.assistantMessageId),
        eq(assistantMessage.userId, memoryExtractions.userId),
      ),
    )
    .where(eq(memoryExtractions.id, extractionId))
    .limit(1);
  if (!pair) return null;

  // Only this branch: another version's messages are never context for this version's extraction.
  const previous =
    previousMessages > 0 && pair.userParentId !== null
      ? (
          await listBranch(db, {
            userId: pair.userId,
            conversationId: pair.conversationId,
            throughId: pair.userParentId,
            limit: previousMessages,
          })
        ).filter((message) => message.role === "user" || message.role === "assistant")
      : [];

  return {
    extractionId,
    userId: pair.userId,
    userName: pair.userName,
    userTimeZone: pair.userTimeZone,
    conversationId: pair.conversationId,
    userMessage: { id: pair.userMessageId, role: "user", content: pair.userContent },
    assistantMessage: { id: pair.assistantMessageId, role: "assistant", content: pair.assistantContent },
    previous: previous.map((message) => ({
      id: message.id,
      role: message.role === "assistant" ? "assistant" : "user",
      content: message.content,
    })),
    importedSaidAt: pair.importId ? pair.userCreatedAt.toISOString() : null,
  };
}
