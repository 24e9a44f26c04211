import { declinePendingSend } from "@/lib/agent/approval";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

export const POST = route({ params: idParams }, async ({ db, userId, params }) => ({
  send: await declinePendingSend(db, { userId, operationId: params.id }),
}));
