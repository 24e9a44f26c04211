/**
 * Approval claims the row by one UPDATE conditional on both the status and the stored draft the user
 * was shown, so approving twice sends once and an edit in between is a 409; exactly that draft is
 * sent, with no model call in between. The pending state lives in the database to survive a restart.
 */

import { agentConfig } from "@/core/config";
import { AppError } from "@/core/errors";
import type { Logger } from "@/core/logger";
import type { Db } from "@/db/client";
import {
  failInterruptedSends,
  type GmailOperationRow,
  getOperation,
  transitionOperation,
} from "@/db/queries/gmail-operations";
import { draftSchema } from "@/lib/validation/agent";
import { type Draft, type Mailbox, MailboxError, type MailboxKind } from "./mailbox/types";

export interface PendingSend {
  id: string;
  status: GmailOperationRow["status"];
  mailbox: string;
  draft: Draft;
  error: string | null;
  result: unknown;
  /** Failed because the process sending it stopped: whether it went out is not known. */
  interrupted: boolean;
}

function toPendingSend(row: GmailOperationRow): PendingSend {
  return {
    id: row.id,
    status: row.status,
    mailbox: row.mailbox,
    draft: draftSchema.parse(row.params),
    error: row.error,
    result: row.result,
    interrupted: row.status === "failed" && (row.result as { interrupted?: unknown } | null)?.interrupted === true,
  };
}

async function sendOperation(db: Db, input: { userId: string; operationId: string }): Promise<GmailOperationRow> {
  const row = await getOperation(db, { userId: input.userId, id: input.operationId });
  if (row?.operation !== "send_email") throw new AppError("not_found:mail_operation", "No such email to send");
  return row;
}

function sameDraft(a: Draft, b: Draft): boolean {
  return JSON.stringify(draftSchema.parse(a)) === JSON.stringify(draftSchema.parse(b));
}

function notPending(row: GmailOperationRow): AppError {
  const what: Record<string, string> = {
    approved: "is already being sent",
    succeeded: "was already sent",
    failed: "was approved and failed to send",
    cancelled: "was declined",
  };
  return new AppError(`conflict:${row.status}`, `This email ${what[row.status] ?? "is not waiting for approval"}`);
}

function draftChanged(): AppError {
  return new AppError("conflict:draft_changed", "The draft changed since it was shown: review it again before sending");
}

export async function getPendingSend(db: Db, input: { userId: string; operationId: string }): Promise<PendingSend> {
  return toPendingSend(await sendOperation(db, input));
}

/** A send no longer pending is a 409 saying what became of it. */
async function leavePending(
  db: Db,
  input: { userId: string; operationId: string },
  to: GmailOperationRow["status"],
  params?: Record<string, unknown>,
): Promise<GmailOperationRow> {
  const row = await sendOperation(db, input);
  const updated = await transitionOperation(db, {
    userId: input.userId,
    id: row.id,
    from: "pending_confirmation",
    to,
    ...(params ? { params } : {}),
  });
  if (!updated) throw notPending(await sendOperation(db, input));
  return updated;
}

/** A reply stays in the thread it was prepared for, whatever the edit carries. */
export async function editPendingSend(
  db: Db,
  input: { userId: string; operationId: string; draft: Draft },
): Promise<PendingSend> {
  const { thread } = draftSchema.parse((await sendOperation(db, input)).params);
  const { thread: _ignored, ...edited } = draftSchema.parse(input.draft);
  return toPendingSend(
    await leavePending(db, input, "pending_confirmation", { ...edited, ...(thread ? { thread } : {}) }),
  );
}

export async function declinePendingSend(db: Db, input: { userId: string; operationId: string }): Promise<PendingSend> {
  return toPendingSend(await leavePending(db, input, "cancelled"));
}

export async function approvePendingSend(
  db: Db,
  input: { userId: string; operationId: string; shown: Draft; mailboxFor: (kind: MailboxKind) => Promise<Mailbox> },
): Promise<PendingSend> {
  const row = await sendOperation(db, input);
  if (row.status !== "pending_confirmation") throw notPending(row);
  const stored = draftSchema.parse(row.params);
  if (!sameDraft(stored, input.shown)) throw draftChanged();
  // Claimed only while the draft is still the one compared, in one statement: an edit from another
  // tab in between leaves nothing to claim, and what is sent is what the row says.
  const claimed = await transitionOperation(db, {
    userId: input.userId,
    id: row.id,
    from: "pending_confirmation",
    fromParams: row.params,
    to: "approved",
  });
  if (!claimed) {
    const now = await sendOperation(db, input);
    throw now.status === "pending_confirmation" ? draftChanged() : notPending(now);
  }

  const started = performance.now();
  try {
    const mailbox = await input.mailboxFor(row.mailbox === "demo" ? "demo" : "gmail");
    const sent = await mailbox.send(stored);
    const done = await transitionOperation(db, {
      userId: input.userId,
      id: row.id,
      from: "approved",
      to: "succeeded",
      result: sent,
      latencyMs: Math.round(performance.now() - started),
    });
    return toPendingSend(done ?? claimed);
  } catch (error) {
    await transitionOperation(db, {
      userId: input.userId,
      id: row.id,
      from: "approved",
      to: "failed",
      error: error instanceof Error ? error.message : String(error),
      latencyMs: Math.round(performance.now() - started),
    });
    if (error instanceof MailboxError)
      throw new AppError(`upstream:${error.code}`, error.userMessage, { cause: error });
    throw error;
  }
}

export const INTERRUPTED_SEND_ERROR =
  "Lifeline stopped while sending it, so it cannot tell whether it went out — check your Sent folder before sending it again";

/** Never left "Sending…" forever, and never approvable again: whether it went out is unknown, so nothing is sent twice. */
export async function recoverInterruptedSends(
  db: Db,
  deps: { now: () => Date; log: Logger },
  { afterMs = agentConfig.sendInterruptedAfterMs }: { afterMs?: number } = {},
): Promise<number> {
  const rows = await failInterruptedSends(db, {
    staleBefore: new Date(deps.now().getTime() - afterMs),
    error: INTERRUPTED_SEND_ERROR,
  });
  if (rows.length > 0)
    deps.log.warn({ sends: rows.map((row) => row.id) }, "marked email sends cut off by a stopped server");
  return rows.length;
}

/** Null when the mailbox failed: the card then claims nothing either way. */
export async function unfamiliarRecipients(
  send: PendingSend,
  mailboxFor: (kind: MailboxKind) => Promise<Mailbox>,
): Promise<string[] | null> {
  const { to, cc, bcc } = send.draft;
  try {
    const mailbox = await mailboxFor(send.mailbox === "demo" ? "demo" : "gmail");
    return await mailbox.neverSeen([...to, ...cc, ...bcc]);
  } catch (error) {
    if (error instanceof MailboxError) return null;
    throw error;
  }
}
