import { addImportBatch } from "@/db/queries/imports";
import { route } from "@/lib/api/route";
import { processImportDispatcher } from "@/lib/runtime";
import { idParams } from "@/lib/validation/common";
import { importBatchBody } from "@/lib/validation/imports";

/**
 * POST /api/imports/:id/conversations {conversations} → {conversationsAdded, messagesAdded,
 * messagesAlreadyImported, exchangesQueued}: one batch, written in one transaction (a bad batch
 * writes nothing); what the account already has is not added again. 409 once the import started.
 */
export const POST = route({ params: idParams, body: importBatchBody }, async ({ db, userId, params, body }) =>
  addImportBatch(db, {
    userId,
    importId: params.id,
    conversations: body.conversations,
    runner: processImportDispatcher().kind,
  }),
);
