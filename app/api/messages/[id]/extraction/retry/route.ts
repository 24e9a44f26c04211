import { route } from "@/lib/api/route";
import { retryExtraction } from "@/lib/jobs/extraction-queue";
import { toExtractionView } from "@/lib/jobs/extraction-view";
import { processDispatcher } from "@/lib/runtime";
import { idParams } from "@/lib/validation/common";

/**
 * POST /api/messages/:id/extraction/retry → 202 {extraction}: re-runs the failed extraction of the
 * pair the assistant message :id answers (fresh attempts, after the response). 409
 * conflict:extraction_not_failed when it is not failed; 404 not_found:message when missing or not yours.
 */
export const POST = route({ params: idParams, status: 202 }, async ({ db, userId, params }) => ({
  extraction: await toExtractionView(
    db,
    await retryExtraction(db, { userId, assistantMessageId: params.id }, processDispatcher()),
  ),
}));
