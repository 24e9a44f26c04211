import { accessTokenConfig } from "@/core/config";
import { createAccessToken, listAccessTokens } from "@/db/queries/access-tokens";
import { route } from "@/lib/api/route";
import { hashAccessToken, newAccessTokenSecret } from "@/lib/auth/access-tokens";
import { accessTokenCreateBody } from "@/lib/validation/access-tokens";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Never the secrets. Sessions only: access tokens cannot manage tokens. */
export const GET = route({}, async ({ db, userId }) => ({ tokens: await listAccessTokens(db, { userId }) }));

/** The secret is in this response only; the database keeps its hash. */
export const POST = route({ body: accessTokenCreateBody, status: 201 }, async ({ db, userId, body }) => {
  const secret = newAccessTokenSecret();
  const token = await createAccessToken(db, {
    userId,
    name: body.name,
    scope: body.scope,
    tokenHash: hashAccessToken(secret),
    expiresAt: body.expiresInDays ? new Date(Date.now() + body.expiresInDays * DAY_MS) : null,
    maxPerUser: accessTokenConfig.maxPerUser,
  });
  return { token, secret };
});
