import { approvePendingSend } from "@/lib/agent/approval";
import { googleClient, mailboxOfKind } from "@/lib/agent/mailbox";
import { route } from "@/lib/api/route";
import { sendDraftBody } from "@/lib/validation/agent";
import { idParams } from "@/lib/validation/common";

/** Sends exactly the stored draft, which must equal the one the user was shown (else 409); approving twice sends once. */
export const POST = route({ params: idParams, body: sendDraftBody }, async ({ db, userId, params, body }) => ({
  send: await approvePendingSend(db, {
    userId,
    operationId: params.id,
    shown: body.draft,
    mailboxFor: (kind) => mailboxOfKind(db, userId, kind, { google: googleClient() }),
  }),
}));
