import { route } from "@/lib/api/route";
import { getMessageExtraction } from "@/lib/jobs/extraction-view";
import { idParams } from "@/lib/validation/common";

export const GET = route({ params: idParams }, async ({ db, userId, params }) => ({
  extraction: await getMessageExtraction(db, { userId, assistantMessageId: params.id }),
}));
