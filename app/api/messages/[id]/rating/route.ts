import { clearRating, getRating, rateAnswer } from "@/db/queries/ratings";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";
import { ratingBody } from "@/lib/validation/ratings";

/** GET /api/messages/:id/rating → {rating: {rating, reason, …} | null}; 404 when the message is not yours. */
export const GET = route({ params: idParams }, async ({ db, userId, params }) => ({
  rating: await getRating(db, { userId, messageId: params.id }),
}));

/** PUT /api/messages/:id/rating {rating: "up"|"down", reason?} → {rating}; replaces an earlier rating. */
export const PUT = route({ params: idParams, body: ratingBody }, async ({ db, userId, params, body }) => ({
  rating: await rateAnswer(db, { userId, messageId: params.id, ...body }),
}));

/** DELETE /api/messages/:id/rating → 204. */
export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => {
  await clearRating(db, { userId, messageId: params.id });
});
