import { declinePendingSend } from "@/lib/agent/approval";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

/** POST /api/agent/sends/:id/decline → {send} with status cancelled; nothing is sent (409 once decided). */
export const POST = route({ params: idParams }, async ({ db, userId, params }) => ({
  send: await declinePendingSend(db, { userId, operationId: params.id }),
}));
