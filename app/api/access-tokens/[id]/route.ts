import { revokeAccessToken } from "@/db/queries/access-tokens";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";

export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => {
  await revokeAccessToken(db, { userId, tokenId: params.id });
});
