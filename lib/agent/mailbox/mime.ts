/**
 * RFC 2822 messages for the Gmail API's `raw` field (base64url): plain text, UTF-8, with encoded
 * non-ASCII subjects (RFC 2047) and every header line free of CR/LF (no header injection from a
 * model-written subject or address).
 */
import type { Draft } from "./types";

const noLineBreaks = (value: string) => value.replace(/[\r\n]+/g, " ").trim();

function encodeHeader(value: string): string {
  const clean = noLineBreaks(value);
  return /^[\x20-\x7e]*$/.test(clean) ? clean : `=?UTF-8?B?${Buffer.from(clean, "utf8").toString("base64")}?=`;
}

export function toRfc2822(draft: Draft, extraHeaders: Record<string, string> = {}): string {
  const headers: [string, string][] = [
    ["To", draft.to.map(noLineBreaks).join(", ")],
    ...(draft.cc.length > 0 ? ([["Cc", draft.cc.map(noLineBreaks).join(", ")]] as [string, string][]) : []),
    ...(draft.bcc.length > 0 ? ([["Bcc", draft.bcc.map(noLineBreaks).join(", ")]] as [string, string][]) : []),
    ["Subject", encodeHeader(draft.subject)],
    ...Object.entries(extraHeaders).map(([name, value]): [string, string] => [name, noLineBreaks(value)]),
    ["MIME-Version", "1.0"],
    ["Content-Type", 'text/plain; charset="UTF-8"'],
    ["Content-Transfer-Encoding", "8bit"],
  ];
  const body = draft.body.replace(/\r?\n/g, "\r\n");
  return `${headers.map(([name, value]) => `${name}: ${value}`).join("\r\n")}\r\n\r\n${body}`;
}

export function base64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

export function fromBase64url(data: string): string {
  return Buffer.from(data, "base64url").toString("utf8");
}
