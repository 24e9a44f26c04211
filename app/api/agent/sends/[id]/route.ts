import { editPendingSend, getPendingSend } from "@/lib/agent/approval";
import { route } from "@/lib/api/route";
import { sendDraftBody } from "@/lib/validation/agent";
import { idParams } from "@/lib/validation/common";

/** GET /api/agent/sends/:id → {send}: an email the agent prepared, its status and exact draft. 404 if not yours. */
export const GET = route({ params: idParams }, async ({ db, userId, params }) => ({
  send: await getPendingSend(db, { userId, operationId: params.id }),
}));

/** PATCH /api/agent/sends/:id {draft} → {send}: edits the draft while it waits for approval (409 once decided). */
export const PATCH = route({ params: idParams, body: sendDraftBody }, async ({ db, userId, params, body }) => ({
  send: await editPendingSend(db, { userId, operationId: params.id, draft: body.draft }),
}));
