import { AppError } from "@/core/errors";
import { createUser } from "@/db/queries/users";
import { route } from "@/lib/api/route";
import { clientAddress } from "@/lib/auth/client-address";
import { hashPassword } from "@/lib/auth/password";
import { assertAcceptableNewPassword } from "@/lib/auth/password-policy";
import { hashingBusyAsRateLimited } from "@/lib/auth/reauth";
import { getRateLimiter } from "@/lib/limits/rate-limit";
import { registerBody } from "@/lib/validation/account";

/** 429 with Retry-After over the per-address limit (LIFELINE_REGISTER_RATE_LIMIT); sign in afterwards. */
export const POST = route({ auth: "public", body: registerBody, status: 201 }, async ({ db, body, request }) => {
  assertAcceptableNewPassword(body.password, "body.password");
  const address = clientAddress(request.headers);
  const decision = address ? await getRateLimiter("register")?.take(db, address) : undefined;
  if (decision && !decision.ok) {
    throw new AppError("rate_limited", "Too many new accounts from this address — try again later", {
      retryAfter: decision.retryAfterSeconds,
    });
  }
  const passwordHash = await hashPassword(body.password).catch(hashingBusyAsRateLimited);
  const user = await createUser(db, { email: body.email, name: body.name, passwordHash });
  return { user: { id: user.id, email: user.email, name: user.name } };
});
