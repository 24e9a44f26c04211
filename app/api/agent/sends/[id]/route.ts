import type { Db } from "@/db/client";
import { editPendingSend, getPendingSend, type PendingSend, unfamiliarRecipients } from "@/lib/agent/approval";
import { googleClient, mailboxOfKind } from "@/lib/agent/mailbox";
import { route } from "@/lib/api/route";
import { sendDraftBody } from "@/lib/validation/agent";
import { idParams } from "@/lib/validation/common";

/** The send, and its recipients the mailbox has never seen (null: the mailbox could not say). */
async function withRecipients(db: Db, userId: string, send: PendingSend) {
  const unfamiliar = await unfamiliarRecipients(send, (kind) =>
    mailboxOfKind(db, userId, kind, { google: googleClient() }),
  );
  return { send, unfamiliarRecipients: unfamiliar };
}

/**
 * GET /api/agent/sends/:id → {send, unfamiliarRecipients}: an email the agent prepared, its status
 * and exact draft, and which of its recipients the mailbox has never seen. 404 if not yours.
 */
export const GET = route({ params: idParams }, async ({ db, userId, params }) =>
  withRecipients(db, userId, await getPendingSend(db, { userId, operationId: params.id })),
);

/** PATCH /api/agent/sends/:id {draft} → {send, unfamiliarRecipients}: edits the draft while it waits for approval (409 once decided). */
export const PATCH = route({ params: idParams, body: sendDraftBody }, async ({ db, userId, params, body }) =>
  withRecipients(db, userId, await editPendingSend(db, { userId, operationId: params.id, draft: body.draft })),
);
