import { route } from "@/lib/api/route";
import { retryExtraction } from "@/lib/jobs/extraction-queue";
import { toExtractionView } from "@/lib/jobs/extraction-view";
import { processDispatcher } from "@/lib/runtime";
import { idParams } from "@/lib/validation/common";

/** 202: fresh attempts run after the response. */
export const POST = route({ params: idParams, status: 202 }, async ({ db, userId, params }) => ({
  extraction: await toExtractionView(
    db,
    await retryExtraction(db, { userId, assistantMessageId: params.id }, processDispatcher()),
  ),
}));
