import { badRequest, userGoneAsUnauthorized } from "@/core/errors";
import { getPasswordHash, setPasswordHash } from "@/db/queries/users";
import { route } from "@/lib/api/route";
import { hashPassword } from "@/lib/auth/password";
import { assertAcceptableNewPassword } from "@/lib/auth/password-policy";
import { checkCurrentPassword, hashingBusyAsRateLimited } from "@/lib/auth/reauth";
import { reissuedSessionCookie } from "@/lib/auth/revocation";
import { decodeRequestSession } from "@/lib/auth/session";
import { passwordChangeBody } from "@/lib/validation/account";

/** Every other session ends (the session version is bumped); this one carries on with a re-issued cookie. */
export const POST = route({ body: passwordChangeBody }, async ({ db, userId, body, request }) => {
  assertAcceptableNewPassword(body.newPassword, "body.newPassword");
  const hash = await getPasswordHash(db, { userId }).catch(userGoneAsUnauthorized);
  if (!hash) {
    throw badRequest({ "body.currentPassword": "This account has no password: it signs in with Google" });
  }
  await checkCurrentPassword(db, { userId, hash, password: body.currentPassword, field: "body.currentPassword" });
  const passwordHash = await hashPassword(body.newPassword).catch(hashingBusyAsRateLimited);
  const { sessionVersion } = await setPasswordHash(db, { userId, passwordHash }).catch(userGoneAsUnauthorized);
  const session = await decodeRequestSession(request);
  const headers = new Headers();
  if (session) headers.append("set-cookie", await reissuedSessionCookie(session, sessionVersion));
  return new Response(null, { status: 204, headers });
});
