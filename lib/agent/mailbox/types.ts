/** Every method is scoped to one user's mailbox when it is made. */

export type MailboxKind = "gmail" | "demo";

export interface EmailSummary {
  id: string;
  from: string;
  to: string[];
  subject: string;
  snippet: string;
  /** ISO 8601. */
  date: string;
  labels: string[];
  unread: boolean;
}

export interface Email extends EmailSummary {
  cc: string[];
  body: string;
  threadId: string;
  /** A reply names it in In-Reply-To and References. */
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
}

export interface DraftSummary {
  /** Gmail's differs from its message's id; `readDraft` takes this one. */
  id: string;
  messageId: string;
  to: string[];
  subject: string;
  snippet: string;
  /** ISO 8601 */
  date: string;
}

export interface SavedDraft extends DraftSummary {
  cc: string[];
  bcc: string[];
  body: string;
  threadId: string;
}

export interface MailLabel {
  id: string;
  name: string;
  type: "system" | "user";
}

/** Gmail's rule (users.messages › threadId): threadId, References/In-Reply-To and a matching subject. */
export interface DraftThread {
  threadId: string;
  /** null when the email answered had none: then only threadId is set. */
  inReplyTo: string | null;
  references: string[];
}

/** Exactly what the user sees on the approval card. */
export interface Draft {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  body: string;
  /** Not editable on the card. */
  thread?: DraftThread;
}

export interface Mailbox {
  readonly kind: MailboxKind;
  readonly description: string;
  search(query: string, max: number): Promise<EmailSummary[]>;
  read(id: string): Promise<Email>;
  listLabels(): Promise<MailLabel[]>;
  /** Label names (any case) or ids; a label the mailbox does not have is refused (`unknownLabelsError`). */
  modifyLabels(id: string, add: string[], remove: string[]): Promise<{ id: string; labels: string[] }>;
  createDraft(draft: Draft): Promise<{ draftId: string; threadId?: string }>;
  listDrafts(max: number): Promise<DraftSummary[]>;
  readDraft(id: string): Promise<SavedDraft>;
  send(draft: Draft): Promise<{ messageId: string; threadId?: string }>;
  /** Drafts do not count as having seen an address. */
  neverSeen(addresses: string[]): Promise<string[]>;
}

export type MailboxErrorCode =
  | "not_connected"
  | "unauthorized"
  | "revoked"
  | "forbidden"
  | "domain_policy"
  | "api_disabled"
  | "rate_limited"
  | "quota_exhausted"
  | "not_found"
  | "invalid"
  | "unavailable";

const USER_MESSAGES: Record<MailboxErrorCode, string> = {
  not_connected:
    "Gmail is not connected. Connect Google in Settings → Gmail, or use the demo mailbox to try agent mode.",
  unauthorized: "Google no longer accepts Lifeline's access to Gmail. Reconnect Google in Settings → Gmail.",
  revoked:
    "Google says Lifeline's access to your Gmail was revoked, so Lifeline has disconnected it. Reconnect Google in Settings → Gmail to use it again.",
  forbidden:
    "Google refused this Gmail action: Lifeline's access lacks the gmail.modify permission. Reconnect Google in Settings → Gmail and allow Lifeline to read, compose, send and label your email.",
  domain_policy: "Your Google Workspace administrator does not allow apps like Lifeline to use Gmail in your domain.",
  api_disabled:
    "The Gmail API is not enabled for this Lifeline server's Google Cloud project. This is for the server's operator (administrator) to fix: enable the Gmail API in the Google Cloud console.",
  rate_limited: "Gmail is rate limiting requests right now (Lifeline retried a few times). Try again in a minute.",
  quota_exhausted:
    "This Lifeline server has used up its daily Gmail API quota. Try again tomorrow, or ask the server's operator to raise the quota.",
  not_found: "That email or draft was not found in the mailbox.",
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
    userMessage?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.userMessage = userMessage ?? USER_MESSAGES[code];
  }

  static invalid(detail: string, gmailMessage: string): MailboxError {
    return new MailboxError("invalid", detail, `${USER_MESSAGES.invalid} Gmail said: ${gmailMessage}`);
  }
}

export function unknownLabelsError(unknown: string[], labels: MailLabel[]): MailboxError {
  const quoted = unknown.map((name) => `“${name}”`).join(", ");
  return new MailboxError(
    "invalid",
    `unknown labels: ${unknown.join(", ")}`,
    `There is no label ${quoted} in this mailbox. Its labels are: ${labels.map((l) => l.name).join(", ")}.`,
  );
}

export function snippetOf(body: string, max = 160): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}
