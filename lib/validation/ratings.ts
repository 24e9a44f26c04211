import { z } from "zod";
import { ANSWER_RATINGS } from "@/db/schema";
import { hasVisibleText, requestString, text } from "./strings";

export const RATING_REASON_MAX = 1_000;

/** PUT /api/messages/:id/rating: thumbs up or down, and optionally why (a blank reason is no reason). */
export const ratingBody = z.strictObject({
  rating: z.enum(ANSWER_RATINGS, { error: 'Must be "up" or "down"' }),
  reason: text({ min: 0, max: RATING_REASON_MAX, multiline: true })
    .nullish()
    .transform((value) => (value && hasVisibleText(value) ? value : null)),
});

/** The rated-answers list's filter: ?rating=up|down (absent: both). */
export const ratingFilter = z.strictObject({
  rating: requestString().pipe(z.enum(ANSWER_RATINGS)).optional(),
});
