import { z } from "zod";
import { accessTokenConfig } from "@/core/config";
import { ACCESS_TOKEN_SCOPES } from "@/db/schema";
import { text } from "./strings";

/** POST /api/access-tokens {name, scope, expiresInDays?} — expiresInDays null or absent: never expires. */
export const accessTokenCreateBody = z.strictObject({
  name: text({ max: accessTokenConfig.nameMaxChars }),
  scope: z.enum(ACCESS_TOKEN_SCOPES, { error: 'Must be "read" or "read+write"' }),
  expiresInDays: z
    .union(
      accessTokenConfig.expiryDays.map((days) => z.literal(days)) as unknown as [
        z.ZodLiteral<number>,
        z.ZodLiteral<number>,
        ...z.ZodLiteral<number>[],
      ],
      { error: `Must be one of ${accessTokenConfig.expiryDays.join(", ")} (days), or null for no expiry` },
    )
    .nullable()
    .optional(),
});
