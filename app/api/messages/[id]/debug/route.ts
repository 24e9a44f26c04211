import { route } from "@/lib/api/route";
import { getDebugView } from "@/lib/chat/debug-view";
import { idParams } from "@/lib/validation/common";

export const GET = route({ params: idParams }, async ({ db, userId, params }) => ({
  debug: await getDebugView(db, { userId, messageId: params.id }),
}));
