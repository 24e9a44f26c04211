/**
 * `prompt=consent` makes Google return a refresh token on every consent. A Google sign-in whose email
 * belongs to a password account is refused: that owner never proved the address, so merging would
 * hand the Gmail tokens to whoever registered it first.
 */
import Google from "next-auth/providers/google";
import { env as processEnv, type RawEnv } from "@/core/env";

export const GOOGLE_PROVIDER_ID = "google";

/** The narrowest set covering every Gmail call Lifeline makes, as Google asks apps to request. */
export const GMAIL_SCOPES = ["https://www.googleapis.com/auth/gmail.modify"] as const;

export const GOOGLE_SCOPES = ["openid", "email", "profile", ...GMAIL_SCOPES] as const;

export function isGoogleConfigured(env: RawEnv = processEnv()): boolean {
  return Boolean(env.AUTH_GOOGLE_ID?.trim() && env.AUTH_GOOGLE_SECRET?.trim());
}

export function googleProvider(env: RawEnv = processEnv()) {
  if (!isGoogleConfigured(env)) return null;
  return Google({
    clientId: env.AUTH_GOOGLE_ID?.trim(),
    clientSecret: env.AUTH_GOOGLE_SECRET?.trim(),
    authorization: {
      params: {
        scope: GOOGLE_SCOPES.join(" "),
        access_type: "offline",
        prompt: "consent",
        include_granted_scopes: "true",
      },
    },
  });
}
