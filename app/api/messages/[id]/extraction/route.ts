import { route } from "@/lib/api/route";
import { getMessageExtraction } from "@/lib/jobs/extraction-view";
import { idParams } from "@/lib/validation/common";

/**
 * GET /api/messages/:id/extraction → {extraction}: the memory extraction of the pair the assistant
 * message :id answers — status, attempts, last error, the memories it stored and its decisions.
 * 404 not_found:message when the message is missing, not yours, or has no extraction.
 */
export const GET = route({ params: idParams }, async ({ db, userId, params }) => ({
  extraction: await getMessageExtraction(db, { userId, assistantMessageId: params.id }),
}));
