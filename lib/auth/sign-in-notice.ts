/**
 * The notices the sign-in page can show after the app sent the user there ("You were signed out
 * everywhere", "Your account was deleted"). The URL carries only a code from this fixed set
 * (`/login?notice=account-deleted`): the page shows its own text for it, never text from the URL,
 * and an unknown code shows nothing. The path is fixed too — nothing here redirects anywhere.
 */

export const SIGN_IN_NOTICES = {
  "signed-out-everywhere":
    "You were signed out everywhere: on every browser and device, and every access token was ended. Sign in again to continue.",
  "account-deleted": "Your account was deleted, with all its chats, memories and notes.",
} as const;

export type SignInNotice = keyof typeof SIGN_IN_NOTICES;

export function signInNoticeText(code: unknown): string | null {
  if (typeof code !== "string" || !Object.hasOwn(SIGN_IN_NOTICES, code)) return null;
  return SIGN_IN_NOTICES[code as SignInNotice];
}

export function signInPathWith(notice: SignInNotice): string {
  return `/login?notice=${notice}`;
}
