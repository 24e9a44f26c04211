/** A pending send survives a restart; claiming it is one conditional UPDATE, so approving twice sends once. */
import { and, asc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { type GmailOperationStatus, gmailOperations } from "@/db/schema";

export type GmailOperationRow = typeof gmailOperations.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OperationContext {
  userId: string;
  conversationId: string | null;
  messageId: string | null;
}

export async function recordOperation(
  db: Db,
  input: OperationContext & {
    operation: string;
    mailbox: string;
    params: Record<string, unknown>;
    status: GmailOperationStatus;
    result?: unknown;
    error?: string | null;
    latencyMs?: number | null;
  },
): Promise<GmailOperationRow> {
  const [row] = await db
    .insert(gmailOperations)
    .values({
      userId: input.userId,
      conversationId: input.conversationId,
      messageId: input.messageId,
      operation: input.operation,
      mailbox: input.mailbox,
      params: input.params,
      status: input.status,
      result: input.result ?? null,
      error: input.error ?? null,
      latencyMs: input.latencyMs ?? null,
    })
    .returning();
  if (!row) throw new Error("recordOperation: no row returned");
  return row;
}

export async function getOperation(db: Db, input: { userId: string; id: string }): Promise<GmailOperationRow | null> {
  if (!UUID.test(input.id)) return null;
  const [row] = await db
    .select()
    .from(gmailOperations)
    .where(and(eq(gmailOperations.userId, input.userId), eq(gmailOperations.id, input.id)));
  return row ?? null;
}

export async function transitionOperation(
  db: Db,
  input: {
    userId: string;
    id: string;
    from: GmailOperationStatus;
    /** The row's params must still equal these (jsonb equality), checked in the same statement. */
    fromParams?: unknown;
    to: GmailOperationStatus;
    params?: Record<string, unknown>;
    result?: unknown;
    error?: string | null;
    latencyMs?: number | null;
  },
): Promise<GmailOperationRow | null> {
  if (!UUID.test(input.id)) return null;
  const [row] = await db
    .update(gmailOperations)
    .set({
      status: input.to,
      ...(input.params !== undefined ? { params: input.params } : {}),
      ...(input.result !== undefined ? { result: input.result } : {}),
      ...(input.error !== undefined ? { error: input.error } : {}),
      ...(input.latencyMs !== undefined ? { latencyMs: input.latencyMs } : {}),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(gmailOperations.userId, input.userId),
        eq(gmailOperations.id, input.id),
        eq(gmailOperations.status, input.from),
        input.fromParams !== undefined
          ? sql`${gmailOperations.params} = ${JSON.stringify(input.fromParams)}::jsonb`
          : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

export async function listOperationsOfMessage(
  db: Db,
  input: { userId: string; messageId: string },
): Promise<GmailOperationRow[]> {
  return db
    .select()
    .from(gmailOperations)
    .where(and(eq(gmailOperations.userId, input.userId), eq(gmailOperations.messageId, input.messageId)))
    .orderBy(asc(gmailOperations.createdAt), asc(gmailOperations.id));
}

/** The sender stopped between claim and outcome, so whether the email left is unknown: failed, interrupted. */
export async function failInterruptedSends(
  db: Db,
  input: { staleBefore: Date; error: string },
): Promise<GmailOperationRow[]> {
  return db
    .update(gmailOperations)
    .set({ status: "failed", error: input.error, result: { interrupted: true }, updatedAt: new Date() })
    .where(
      and(
        eq(gmailOperations.operation, "send_email"),
        eq(gmailOperations.status, "approved"),
        lt(gmailOperations.updatedAt, input.staleBefore),
      ),
    )
    .returning();
}
