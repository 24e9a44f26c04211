/** Sessions in server components and server actions (inside Next's request scope). */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { type SessionUser, sessionFromCookieHeader } from "./session";

export async function getServerSession(): Promise<SessionUser | null> {
  const jar = await cookies();
  const header = jar
    .getAll()
    .map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
    .join("; ");
  return sessionFromCookieHeader(header);
}

/** The signed-in user, or a redirect to the sign-in page that comes back to `returnTo`. */
export async function requireServerSession(returnTo: string): Promise<SessionUser> {
  const session = await getServerSession();
  if (!session) redirect(`/login?callbackUrl=${encodeURIComponent(returnTo)}`);
  return session;
}
