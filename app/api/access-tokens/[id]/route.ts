import { revokeAccessToken } from "@/db/queries/access-tokens";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

/** DELETE /api/access-tokens/:id → 204: the token stops working at once (404 not_found:access_token if not yours). */
export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => {
  await revokeAccessToken(db, { userId, tokenId: params.id });
});
