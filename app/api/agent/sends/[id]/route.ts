import type { Db } from "@/db/client";
import { editPendingSend, getPendingSend, type PendingSend, unfamiliarRecipients } from "@/lib/agent/approval";
import { googleClient, mailboxOfKind } from "@/lib/agent/mailbox";
import { route } from "@/lib/api/route";
import { sendDraftBody } from "@/lib/validation/agent";
import { idParams } from "@/lib/validation/common";

/** Null recipients: the mailbox could not say. */
async function withRecipients(db: Db, userId: string, send: PendingSend) {
  const unfamiliar = await unfamiliarRecipients(send, (kind) =>
    mailboxOfKind(db, userId, kind, { google: googleClient() }),
  );
  return { send, unfamiliarRecipients: unfamiliar };
}

export const GET = route({ params: idParams }, async ({ db, userId, params }) =>
  withRecipients(db, userId, await getPendingSend(db, { userId, operationId: params.id })),
);

/** 409 once decided. */
export const PATCH = route({ params: idParams, body: sendDraftBody }, async ({ db, userId, params, body }) =>
  withRecipients(db, userId, await editPendingSend(db, { userId, operationId: params.id, draft: body.draft })),
);
