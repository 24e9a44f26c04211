/**
 * Which mailbox a user's agent acts on, chosen by configuration and the user's own account:
 * their Gmail when Google sign-in is configured (AUTH_GOOGLE_ID/SECRET) and they linked a Google
 * account whose granted scopes include gmail.modify (and Google has not revoked the grant);
 * otherwise the local demo mailbox, which the UI names as such.
 * Only the user's own `accounts` row is ever read.
 */
import { env, type RawEnv } from "@/core/env";
import type { Db } from "@/db/client";
import { getProviderAccount } from "@/db/queries/accounts";
import { connectionOf, type GmailConnection } from "./connection";
import { demoMailbox } from "./demo";
import { gmailMailbox, type RefreshFlights } from "./gmail";
import { type Mailbox, MailboxError, type MailboxKind } from "./types";

export {
  AGENT_GMAIL_SCOPES,
  type GmailConnection,
  type GmailConnectionState,
  gmailConnectionView,
} from "./connection";

export interface GoogleClient {
  clientId: string;
  clientSecret: string;
}

export interface MailboxOptions {
  google: GoogleClient | null;
  now?: () => Date;
  /** How Gmail retries wait, and whose refreshes a mailbox shares (tests; see gmail.ts). */
  sleep?: (ms: number) => Promise<void>;
  refreshFlights?: RefreshFlights;
}

/** Google's OAuth client from AUTH_GOOGLE_ID / AUTH_GOOGLE_SECRET, or null when Google is not configured. */
export function googleClient(config: RawEnv = env()): GoogleClient | null {
  const clientId = config.AUTH_GOOGLE_ID?.trim();
  const clientSecret = config.AUTH_GOOGLE_SECRET?.trim();
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

/** Whether the user's Google account lets the agent work on their Gmail, and if not, why. */
export async function gmailConnection(db: Db, userId: string): Promise<GmailConnection> {
  return connectionOf(await getProviderAccount(db, { userId, provider: "google" }));
}

/** The user's linked Google account, if its grant covers what the agent does. */
async function gmailAccount(db: Db, userId: string) {
  const account = await getProviderAccount(db, { userId, provider: "google" });
  return connectionOf(account).state === "connected" ? account : null;
}

/** Whether the user's agent works on their Gmail (a linked Google account that granted gmail.modify). */
export async function hasGmailAccess(db: Db, userId: string): Promise<boolean> {
  return (await gmailAccount(db, userId)) !== null;
}

/** The mailbox the user's agent uses now: Gmail when linked and configured, else the demo mailbox. */
export async function mailboxForUser(db: Db, userId: string, options: MailboxOptions): Promise<Mailbox> {
  const account = options.google ? await gmailAccount(db, userId) : null;
  if (account && options.google) {
    return gmailMailbox({ db, userId, account, ...options.google, ...gmailOptions(options) });
  }
  return demoMailbox(db, userId, options.now);
}

/** A mailbox of a given kind (an approval sends through the mailbox its draft was made for). */
export async function mailboxOfKind(
  db: Db,
  userId: string,
  kind: MailboxKind,
  options: MailboxOptions,
): Promise<Mailbox> {
  if (kind === "demo") return demoMailbox(db, userId, options.now);
  const account = options.google ? await getProviderAccount(db, { userId, provider: "google" }) : null;
  const { state } = connectionOf(account);
  // A send prepared on Gmail before Google revoked the grant: say that, not just "not connected".
  if (state === "revoked") throw new MailboxError("revoked", "the grant was revoked");
  if (!account || !options.google || state !== "connected") throw new MailboxError("not_connected");
  return gmailMailbox({ db, userId, account, ...options.google, ...gmailOptions(options) });
}

const gmailOptions = ({ now, sleep, refreshFlights }: MailboxOptions) => ({ now, sleep, refreshFlights });
