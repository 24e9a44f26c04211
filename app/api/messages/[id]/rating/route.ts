import { clearRating, getRating, rateAnswer } from "@/db/queries/ratings";
import { route } from "@/lib/api/route";
import { idParams } from "@/lib/validation/common";
import { ratingBody } from "@/lib/validation/ratings";

export const GET = route({ params: idParams }, async ({ db, userId, params }) => ({
  rating: await getRating(db, { userId, messageId: params.id }),
}));

/** Replaces an earlier rating. */
export const PUT = route({ params: idParams, body: ratingBody }, async ({ db, userId, params, body }) => ({
  rating: await rateAnswer(db, { userId, messageId: params.id, ...body }),
}));

export const DELETE = route({ params: idParams }, async ({ db, userId, params }) => {
  await clearRating(db, { userId, messageId: params.id });
});
