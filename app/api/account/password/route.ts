import { badRequest, userGoneAsUnauthorized } from "@/core/errors";
import { getPasswordHash, setPasswordHash } from "@/db/queries/users";
import { route } from "@/lib/api/route";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { passwordChangeBody } from "@/lib/validation/account";

/**
 * POST /api/account/password {currentPassword, newPassword} → 204.
 * A wrong current password is a 400 naming `body.currentPassword`.
 */
export const POST = route({ body: passwordChangeBody }, async ({ db, userId, body }) => {
  const hash = await getPasswordHash(db, { userId }).catch(userGoneAsUnauthorized);
  if (!hash) {
    throw badRequest({ "body.currentPassword": "This account has no password: it signs in with Google" });
  }
  if (!(await verifyPassword(body.currentPassword, hash))) {
    throw badRequest({ "body.currentPassword": "Current password is incorrect" });
  }
  await setPasswordHash(db, { userId, passwordHash: await hashPassword(body.newPassword) });
});
