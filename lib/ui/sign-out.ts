import { signOut } from "next-auth/react";

/**
 * Ends the session, then goes to the sign-in page of the host the user is on. (Auth.js's own
 * redirect goes to AUTH_URL's host, which differs when the app is reached under another name.)
 */
export async function signOutHere(): Promise<void> {
  await signOut({ redirect: false });
  window.location.assign("/login");
}
