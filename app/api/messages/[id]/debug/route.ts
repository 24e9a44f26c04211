import { route } from "@/lib/api/route";
import { getDebugView } from "@/lib/chat/debug-view";
import { idParams } from "@/lib/validation/common";

/**
 * GET /api/messages/:id/debug → the debug record of an assistant message: the exact model input
 * captured at the model boundary, the assembly trace, settings, usage, latencies, retrieval status.
 */
export const GET = route({ params: idParams }, async ({ db, userId, params }) => ({
  debug: await getDebugView(db, { userId, messageId: params.id }),
}));
