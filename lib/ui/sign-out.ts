import { signOut } from "next-auth/react";
import { type SignInNotice, signInPathWith } from "@/lib/auth/sign-in-notice";

/**
 * Ends the session, then goes to the sign-in page of the host the user is on, with a notice when
 * there is news to tell. (Auth.js's own redirect goes to AUTH_URL's host, which differs when the app
 * is reached under another name.)
 */
export async function signOutHere(notice?: SignInNotice): Promise<void> {
  await signOut({ redirect: false });
  window.location.assign(notice ? signInPathWith(notice) : "/login");
}
