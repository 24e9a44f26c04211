/** Granted scopes can be fewer than asked: Google's consent screen lets users untick them one by one. */
import type { ProviderAccount } from "@/db/queries/accounts";

/** gmail.modify covers every call the agent makes; https://mail.google.com/ is the full-access scope above it. */
export const AGENT_GMAIL_SCOPES = ["https://www.googleapis.com/auth/gmail.modify", "https://mail.google.com/"];

export type GmailConnectionState =
  | "not_linked"
  /** Linked, but the granted scopes lack gmail.modify (or no tokens were ever stored). */
  | "missing_scope"
  /** Google refused the refresh token (access revoked, or the grant expired): tokens cleared. */
  | "revoked"
  | "connected";

export interface GmailConnection {
  state: GmailConnectionState;
  revokedAt: Date | null;
}

export function connectionOf(account: ProviderAccount | null): GmailConnection {
  if (!account) return { state: "not_linked", revokedAt: null };
  if (account.tokensRevokedAt) return { state: "revoked", revokedAt: account.tokensRevokedAt };
  const granted = (account.scope ?? "").split(/[\s,]+/);
  const hasTokens = Boolean(account.access_token || account.refresh_token);
  if (!hasTokens || !granted.some((scope) => AGENT_GMAIL_SCOPES.includes(scope)))
    return { state: "missing_scope", revokedAt: null };
  return { state: "connected", revokedAt: null };
}

export interface GmailConnectionView {
  status: { label: string; tone: "success" | "warning" | "outline" };
  problem: string | null;
  action: string | null;
}

export function gmailConnectionView(
  configured: boolean,
  connection: GmailConnection,
  formatWhen: (moment: Date) => string,
): GmailConnectionView {
  if (!configured) return { status: { label: "Not available", tone: "outline" }, problem: null, action: null };
  switch (connection.state) {
    case "connected":
      return { status: { label: "Connected", tone: "success" }, problem: null, action: null };
    case "revoked":
      return {
        status: { label: "Disconnected: access revoked", tone: "warning" },
        problem:
          `Google stopped accepting Lifeline's access to your Gmail${connection.revokedAt ? ` on ${formatWhen(connection.revokedAt)}` : ""} ` +
          "(it was revoked in your Google account, or the grant expired), so Lifeline removed its tokens. Reconnect to use your Gmail again.",
        action: "Reconnect Google (Gmail)",
      };
    case "missing_scope":
      return {
        status: { label: "Linked without Gmail access", tone: "warning" },
        problem:
          "Your Google account is linked, but Google did not grant Lifeline access to read, compose, send and label your email " +
          "(the gmail.modify permission). Reconnect and leave that permission ticked on Google's consent screen.",
        action: "Reconnect Google (Gmail)",
      };
    default:
      return { status: { label: "Not connected", tone: "warning" }, problem: null, action: "Connect Google (Gmail)" };
  }
}
