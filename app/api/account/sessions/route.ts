import { userGoneAsUnauthorized } from "@/core/errors";
import { bumpSessionVersion } from "@/db/queries/users";
import { route } from "@/lib/api/route";
import { reissuedSessionCookie } from "@/lib/auth/revocation";
import { decodeRequestSession } from "@/lib/auth/session";

/** Ends every other session; this one gets its cookie re-issued, and Settings then signs it out too. */
export const DELETE = route({}, async ({ db, userId, request }) => {
  const { sessionVersion } = await bumpSessionVersion(db, { userId }).catch(userGoneAsUnauthorized);
  const session = await decodeRequestSession(request);
  const headers = new Headers({ "cache-control": "no-store" });
  if (session) headers.append("set-cookie", await reissuedSessionCookie(session, sessionVersion));
  return new Response(null, { status: 204, headers });
});
