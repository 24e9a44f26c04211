/**
 * Where to go after signing in: only a path on this site. Anything else ("https://evil.example",
 * "//evil.example", "/\\evil.example", "javascript:…") becomes "/" — no open redirects.
 */
export function safeCallbackUrl(raw: unknown, fallback = "/"): string {
  if (typeof raw !== "string" || raw.length > 2000) return fallback;
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return fallback;
  if (/\p{Cc}|\\/u.test(raw)) return fallback;
  // Never send a signed-in user back to the sign-in pages.
  if (/^\/(login|register)(?:[/?#]|$)/.test(raw)) return fallback;
  return raw;
}

/**
 * The message a sign-in error from Auth.js (`/login?error=…&code=…`) is shown as. `detail` is the
 * `code` of a CredentialsSignin (lib/auth/config.ts: "rate_limited", "busy").
 */
export function signInErrorMessage(code: string | null | undefined, detail?: string | null): string | null {
  switch (code) {
    case undefined:
    case null:
    case "":
      return null;
    case "CredentialsSignin":
      if (detail === "rate_limited") return "Too many sign-in attempts. Wait a few minutes, then try again.";
      if (detail === "busy") return "The server is busy. Try again in a few seconds.";
      return "Wrong email or password.";
    case "OAuthAccountNotLinked":
      return "This email already has a Lifeline account with a password. Sign in with your password, then connect Google from Settings.";
    case "AccessDenied":
      return "Google sign-in was refused: the Google account's email address must be verified.";
    case "Configuration":
      return "Sign-in is not configured correctly on the server. Please tell the administrator.";
    default:
      return "Sign-in failed. Please try again.";
  }
}
