/**
 * Sessions in server components and server actions (inside Next's request scope). A session that
 * was ended (lib/auth/revocation.ts) or whose account is gone counts as signed out, so pages
 * redirect to the sign-in page just as API routes answer 401.
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { assertSafeDeployment } from "@/core/env";
import { getDb } from "@/db/client";
import { isSessionLive } from "./revocation";
import { decodeSessionCookie, type SessionUser } from "./session";

export async function getServerSession(): Promise<SessionUser | null> {
  // Pages of a production server with an unsafe configuration fail (core/env.ts), also when
  // instrumentation.ts register() did not run.
  assertSafeDeployment();
  const jar = await cookies();
  const header = jar
    .getAll()
    .map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
    .join("; ");
  const session = await decodeSessionCookie(header);
  if (!session) return null;
  return (await isSessionLive(await getDb(), session)) ? session.user : null;
}

export async function requireServerSession(returnTo: string): Promise<SessionUser> {
  const session = await getServerSession();
  if (!session) redirect(`/login?callbackUrl=${encodeURIComponent(returnTo)}`);
  return session;
}
