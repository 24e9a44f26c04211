/**
 * Google sign-in, with the Gmail scope the agent needs. Enabled only when both AUTH_GOOGLE_ID and
 * AUTH_GOOGLE_SECRET are set. `access_type=offline` + `prompt=consent` make Google return a
 * refresh token on every consent, which the adapter / sign-in event store in `accounts`.
 *
 * Account linking: a Google sign-in whose email already belongs to a password account is refused
 * (`OAuthAccountNotLinked`) — we never verified that the password account's owner owns the address,
 * so merging would hand the Gmail tokens to whoever registered it first. A signed-in user links
 * Google explicitly from Settings ("Connect Google"), where Auth.js attaches it to the current user.
 */
import Google from "next-auth/providers/google";
import { env as processEnv, type RawEnv } from "@/core/env";

export const GOOGLE_PROVIDER_ID = "google";

/**
 * gmail.modify alone: it covers every Gmail call Lifeline makes (messages.list/get/send/modify,
 * drafts.create, labels.list — each method's "Authorization scopes" in Gmail's API reference), and
 * Google asks apps to request the narrowest set that works; readonly, send and labels beside it
 * would add nothing. Whether the user actually granted it is checked on the account row's granted
 * scopes (lib/agent/mailbox: Google's consent screen lets users untick scopes one by one).
 */
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
