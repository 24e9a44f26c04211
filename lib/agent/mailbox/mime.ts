import { convert as htmlToText } from "html-to-text";
import MailComposer from "nodemailer/lib/mail-composer";
import PostalMime, { decodeWords } from "postal-mime";
import type { Draft } from "./types";

/** The whole string is one recipient: a comma in the name is part of the name, never a second address. */
export function recipientParts(recipient: string): { name: string; address: string } {
  const angle = recipient.lastIndexOf("<");
  if (angle === -1 || !recipient.trimEnd().endsWith(">")) return { name: "", address: recipient.trim() };
  const name = recipient
    .slice(0, angle)
    .trim()
    .replace(/^"(.*)"$/, "$1")
    .replace(/\\(.)/g, "$1");
  return { name, address: recipient.slice(angle + 1, recipient.trimEnd().length - 1).trim() };
}

const addresses = (list: string[]) => list.map(recipientParts);

export async function composeMessage(draft: Draft): Promise<Buffer> {
  const composer = new MailComposer({
    to: addresses(draft.to),
    cc: draft.cc.length > 0 ? addresses(draft.cc) : undefined,
    bcc: draft.bcc.length > 0 ? addresses(draft.bcc) : undefined,
    subject: draft.subject,
    text: draft.body,
    inReplyTo: draft.thread?.inReplyTo ?? undefined,
    references: draft.thread?.references,
    // RFC 5322 §2.1: CRLF only. MailComposer hands `newline` to every MIME node it builds; the
    // @types/nodemailer declarations leave it out.
    newline: "\r\n",
  } as ConstructorParameters<typeof MailComposer>[0]);
  const node = composer.compile();
  // Gmail delivers to the Bcc recipients it reads in `raw` (and removes the header before delivery);
  // MailComposer leaves Bcc out unless told to keep it.
  node.keepBcc = true;
  return node.build();
}

export interface ParsedMessage {
  from: string;
  to: string[];
  cc: string[];
  /** Kept in a message Lifeline wrote (a draft, a sent email); Gmail removes it from what it delivers. */
  bcc: string[];
  subject: string;
  date: string | null;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  text: string;
}

type PostalAddress = { name: string; address?: string; group?: { name: string; address: string }[] };

/** A name with a comma or quote stays quoted. */
export function formatAddress({ name, address }: { name: string; address?: string }): string {
  if (!name) return address ?? "";
  if (!address) return name;
  const quoted = /[",;:<>@()[\]\\]/.test(name) ? `"${name.replace(/(["\\])/g, "\\$1")}"` : name;
  return `${quoted} <${address}>`;
}

const addressList = (list: PostalAddress[] | undefined): string[] =>
  (list ?? []).flatMap((entry): { name: string; address?: string }[] => entry.group ?? [entry]).map(formatAddress);

const ids = (value: string | undefined) => (value ?? "").match(/<[^<>\s]+>/g) ?? [];

export async function parseMessage(raw: Uint8Array): Promise<ParsedMessage> {
  const email = await PostalMime.parse(raw);
  return {
    from: email.from ? formatAddress(email.from as PostalAddress) : "",
    to: addressList(email.to as PostalAddress[] | undefined),
    cc: addressList(email.cc as PostalAddress[] | undefined),
    bcc: addressList(email.bcc as PostalAddress[] | undefined),
    subject: email.subject ?? "",
    date: email.date ?? null,
    messageId: ids(email.messageId)[0] ?? null,
    inReplyTo: ids(email.inReplyTo)[0] ?? null,
    references: ids(email.references),
    text: (email.text ?? (email.html ? htmlText(email.html) : "")).replace(/\r\n/g, "\n").trim(),
  };
}

/** Links and images as bare text: the agent reads the words, and a long URL would crowd them out. */
const htmlText = (html: string) =>
  htmlToText(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      { selector: "img", format: "skip" },
    ],
  });

/** RFC 2047 encoded words, as Gmail's metadata format gives them. */
export function decodeHeader(value: string): string {
  return decodeWords(value);
}
