/**
 * What the agent's tools act on: a mailbox. Two implementations, chosen by configuration
 * (lib/agent/mailbox/index.ts): the user's Gmail over the Gmail API, or the local demo mailbox —
 * a labelled stand-in kept in the project's database, for users without a linked Google account
 * and for tests. Every method is scoped to one user's mailbox when it is made.
 */

export type MailboxKind = "gmail" | "demo";

export interface EmailSummary {
  id: string;
  from: string;
  to: string[];
  subject: string;
  /** The first ~160 characters of the body, on one line. */
  snippet: string;
  /** ISO 8601. */
  date: string;
  labels: string[];
  unread: boolean;
}

export interface Email extends EmailSummary {
  cc: string[];
  body: string;
}

export interface MailLabel {
  id: string;
  name: string;
  type: "system" | "user";
}

/** A message to create as a draft or send: exactly what the user sees on the approval card. */
export interface Draft {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  body: string;
}

export interface Mailbox {
  readonly kind: MailboxKind;
  /** What the UI calls it: "Demo mailbox" or "Gmail (maya@example.com)". */
  readonly description: string;
  search(query: string, max: number): Promise<EmailSummary[]>;
  read(id: string): Promise<Email>;
  listLabels(): Promise<MailLabel[]>;
  createDraft(draft: Draft): Promise<{ draftId: string }>;
  modifyLabels(id: string, add: string[], remove: string[]): Promise<{ id: string; labels: string[] }>;
  send(draft: Draft): Promise<{ messageId: string }>;
}

export type MailboxErrorCode =
  | "not_connected"
  | "unauthorized"
  | "forbidden"
  | "rate_limited"
  | "not_found"
  | "invalid"
  | "unavailable";

const USER_MESSAGES: Record<MailboxErrorCode, string> = {
  not_connected:
    "Gmail is not connected. Connect Google in Settings → Gmail, or use the demo mailbox to try agent mode.",
  unauthorized: "Google no longer accepts Lifeline's access to Gmail. Reconnect Google in Settings → Gmail.",
  forbidden:
    "Google refused this Gmail action: Lifeline lacks the permission. Reconnect Google and grant Gmail access.",
  rate_limited: "Gmail is rate limiting requests right now. Try again in a minute.",
  not_found: "That email was not found in the mailbox.",
  invalid: "Gmail rejected the request as invalid.",
  unavailable: "Gmail is not reachable right now. Try again shortly.",
};

/** A mailbox failure the user can act on: `userMessage` says what happened and what to do. */
export class MailboxError extends Error {
  override readonly name = "MailboxError";
  readonly userMessage: string;

  constructor(
    readonly code: MailboxErrorCode,
    detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.userMessage = USER_MESSAGES[code];
  }
}

export function snippetOf(body: string, max = 160): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}
