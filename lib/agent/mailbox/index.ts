/** Only the user's own `accounts` row is ever read. */
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
  sleep?: (ms: number) => Promise<void>;
  refreshFlights?: RefreshFlights;
}

export function googleClient(config: RawEnv = env()): GoogleClient | null {
  const clientId = config.AUTH_GOOGLE_ID?.trim();
  const clientSecret = config.AUTH_GOOGLE_SECRET?.trim();
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

export async function gmailConnection(db: Db, userId: string): Promise<GmailConnection> {
  return connectionOf(await getProviderAccount(db, { userId, provider: "google" }));
}

async function gmailAccount(db: Db, userId: string) {
  const account = await getProviderAccount(db, { userId, provider: "google" });
  return connectionOf(account).state === "connected" ? account : null;
}

export async function hasGmailAccess(db: Db, userId: string): Promise<boolean> {
  return (await gmailAccount(db, userId)) !== null;
}

export async function mailboxForUser(db: Db, userId: string, options: MailboxOptions): Promise<Mailbox> {
  const account = options.google ? await gmailAccount(db, userId) : null;
  if (account && options.google) {
    return gmailMailbox({ db, userId, account, ...options.google, ...gmailOptions(options) });
  }
  return demoMailbox(db, userId, options.now);
}

/** An approval sends through the mailbox its draft was made for. */
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
