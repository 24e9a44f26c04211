import { approvePendingSend } from "@/lib/agent/approval";
import { googleClient, mailboxOfKind } from "@/lib/agent/mailbox";
import { route } from "@/lib/api/route";
import { sendDraftBody } from "@/lib/validation/agent";
import { idParams } from "@/lib/validation/common";

/**
 * POST /api/agent/sends/:id/approve {draft} → {send}: sends exactly the stored draft, which must
 * equal the one the user was shown (`draft`; else 409 conflict:draft_changed). Approving twice
 * sends once (409 on the second). A mailbox failure is a 502 with a message the user can act on.
 */
export const POST = route({ params: idParams, body: sendDraftBody }, async ({ db, userId, params, body }) => ({
  send: await approvePendingSend(db, {
    userId,
    operationId: params.id,
    shown: body.draft,
    mailboxFor: (kind) => mailboxOfKind(db, userId, kind, { google: googleClient() }),
  }),
}));
