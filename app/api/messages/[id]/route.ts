import { route } from "@/lib/api/route";
import { deleteVersion } from "@/lib/chat/versions";
import { idParams } from "@/lib/validation/common";

/**
 * DELETE /api/messages/:id → 204: deletes the message and everything below it — a version and its
 * continuation — with their debug records, notes and extractions, as deleting a conversation does
 * (docs/chat.md § Versions). 404 not_found:message when missing or not yours; 409
 * conflict:only_answer for a question's only answer, 409 conflict:streaming while an answer in it streams.
 */
export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => {
  await deleteVersion(db, { userId, messageId: params.id });
});
