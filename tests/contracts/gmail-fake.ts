/**
 * A Gmail API served through msw that holds Lifeline to Google's published contract; each rule
 * names its document, and where the documents leave something open the fake says it chose.
 * - [messages] https://developers.google.com/gmail/api/reference/rest/v1/users.messages (`raw`, threadId criteria)
 * - [threads] https://developers.google.com/gmail/api/guides/threads
 * - [format] https://developers.google.com/gmail/api/reference/rest/v1/Format
 * - [scopes] each method's "Authorization scopes" section
 * - [drafts] https://developers.google.com/gmail/api/reference/rest/v1/users.drafts
 * - [errors] https://developers.google.com/gmail/api/guides/handle-errors
 * - [google-errors] https://cloud.google.com/apis/design/errors
 * - [oauth] https://developers.google.com/identity/protocols/oauth2/web-server#offline
 * - RFC 5322, RFC 2047, RFC 2045.
 * Gmail accepts many malformed messages, so RFC breaches are recorded (`violations`) for the test to
 * assert on rather than refused. A message whose thread criteria fail starts its own thread (Gmail
 * documents no error: the fake's choice). Left open, chosen here: `format=full` serves parts
 * transfer-decoded but in their own charset; search understands `from:`, `in:` and bare words only.
 */
import { randomBytes } from "node:crypto";
import { type ParsedMail, simpleParser } from "mailparser";
import { type HttpHandler, HttpResponse, http } from "msw";

export const GMAIL_API = "https://gmail.googleapis.com/gmail/v1/users/me";
export const TOKEN_URL = "https://oauth2.googleapis.com/token";

const SCOPE_PREFIX = "https://www.googleapis.com/auth/";
export const SCOPES = {
  full: "https://mail.google.com/",
  modify: `${SCOPE_PREFIX}gmail.modify`,
  readonly: `${SCOPE_PREFIX}gmail.readonly`,
  metadata: `${SCOPE_PREFIX}gmail.metadata`,
  send: `${SCOPE_PREFIX}gmail.send`,
  compose: `${SCOPE_PREFIX}gmail.compose`,
  labels: `${SCOPE_PREFIX}gmail.labels`,
} as const;

type Method =
  | "messages.list"
  | "messages.get"
  | "messages.send"
  | "messages.modify"
  | "drafts.create"
  | "drafts.list"
  | "drafts.get"
  | "labels.list";

/** [scopes]: the scopes each method accepts. */
const METHOD_SCOPES: Record<Method, string[]> = {
  "messages.list": [SCOPES.full, SCOPES.modify, SCOPES.readonly, SCOPES.metadata],
  "messages.get": [SCOPES.full, SCOPES.modify, SCOPES.readonly, SCOPES.metadata],
  "messages.send": [SCOPES.full, SCOPES.modify, SCOPES.compose, SCOPES.send],
  "messages.modify": [SCOPES.full, SCOPES.modify],
  "drafts.create": [SCOPES.full, SCOPES.modify, SCOPES.compose],
  "drafts.list": [SCOPES.full, SCOPES.modify, SCOPES.compose, SCOPES.readonly],
  "drafts.get": [SCOPES.full, SCOPES.modify, SCOPES.compose, SCOPES.readonly],
  "labels.list": [SCOPES.full, SCOPES.modify, SCOPES.readonly, SCOPES.labels, SCOPES.metadata],
};

export type GmailErrorKind =
  | "authError"
  | "insufficientPermissions"
  | "rateLimitExceeded"
  | "userRateLimitExceeded"
  | "dailyLimitExceeded"
  | "accessNotConfigured"
  | "domainPolicy"
  | "tooManyRequests"
  | "backendError"
  | "notFound"
  | "invalidArgument";

const ERRORS: Record<
  GmailErrorKind,
  { code: number; status: string; domain: string; reason: string; message: string }
> = {
  authError: {
    code: 401,
    status: "UNAUTHENTICATED",
    domain: "global",
    reason: "authError",
    message: "Invalid Credentials",
  },
  insufficientPermissions: {
    code: 403,
    status: "PERMISSION_DENIED",
    domain: "global",
    reason: "insufficientPermissions",
    message: "Request had insufficient authentication scopes.",
  },
  rateLimitExceeded: {
    code: 403,
    status: "PERMISSION_DENIED",
    domain: "usageLimits",
    reason: "rateLimitExceeded",
    message: "Rate Limit Exceeded",
  },
  userRateLimitExceeded: {
    code: 403,
    status: "PERMISSION_DENIED",
    domain: "usageLimits",
    reason: "userRateLimitExceeded",
    message: "User Rate Limit Exceeded",
  },
  dailyLimitExceeded: {
    code: 403,
    status: "PERMISSION_DENIED",
    domain: "usageLimits",
    reason: "dailyLimitExceeded",
    message: "Daily Limit Exceeded",
  },
  accessNotConfigured: {
    code: 403,
    status: "PERMISSION_DENIED",
    domain: "usageLimits",
    reason: "accessNotConfigured",
    message:
      "Gmail API has not been used in project 123456789 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/gmail.googleapis.com/overview?project=123456789 then retry.",
  },
  domainPolicy: {
    code: 403,
    status: "PERMISSION_DENIED",
    domain: "global",
    reason: "domainPolicy",
    message: "The domain administrators have disabled Gmail apps.",
  },
  tooManyRequests: {
    code: 429,
    status: "RESOURCE_EXHAUSTED",
    domain: "usageLimits",
    reason: "rateLimitExceeded",
    message: "Too many concurrent requests for user",
  },
  backendError: {
    code: 500,
    status: "INTERNAL",
    domain: "global",
    reason: "backendError",
    message: "Backend Error",
  },
  notFound: {
    code: 404,
    status: "NOT_FOUND",
    domain: "global",
    reason: "notFound",
    message: "Requested entity was not found.",
  },
  invalidArgument: {
    code: 400,
    status: "INVALID_ARGUMENT",
    domain: "global",
    reason: "invalidArgument",
    message: "Invalid argument",
  },
};

/** [google-errors]: Google's error body for `kind`, optionally with another message and a Retry-After. */
export function gmailError(kind: GmailErrorKind, init: { message?: string; retryAfterSeconds?: number } = {}) {
  const spec = ERRORS[kind];
  const message = init.message ?? spec.message;
  return HttpResponse.json(
    {
      error: {
        code: spec.code,
        message,
        errors: [{ message, domain: spec.domain, reason: spec.reason }],
        status: spec.status,
      },
    },
    {
      status: spec.code,
      headers: init.retryAfterSeconds === undefined ? {} : { "retry-after": String(init.retryAfterSeconds) },
    },
  );
}

export interface StoredMessage {
  id: string;
  threadId: string;
  labelIds: string[];
  raw: Buffer;
  parsed: ParsedMail;
  internalDate: number;
}

export interface ReceivedMessage extends StoredMessage {
  method: "messages.send" | "drafts.create";
  requestedThreadId: string | undefined;
  /** Why it did not join the requested thread (empty when it did, or when none was asked for). */
  threadMisses: string[];
  /** The RFC rules (above) the raw message breaks; empty when it follows them all. */
  violations: string[];
}

const ENCODED_WORD = /=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=/g;
const MSG_ID = /^<[^<>\s@]+@[^<>\s@]+>$/;

export function messageViolations(raw: Buffer): string[] {
  const violations: string[] = [];
  const text = raw.toString("latin1");
  if (/\r(?!\n)|(?<!\r)\n/.test(text)) violations.push("RFC 5322 §2.1: a bare CR or LF (lines must end in CRLF)");
  const lines = text.split("\r\n");
  lines.forEach((line, index) => {
    if (line.length > 998)
      violations.push(`RFC 5322 §2.1.1: line ${index + 1} has ${line.length} characters (max 998)`);
  });
  const headerEnd = lines.indexOf("");
  const headerLines = lines.slice(0, headerEnd === -1 ? lines.length : headerEnd);
  headerLines.forEach((line, index) => {
    if (/[^ -~\t]/.test(line))
      violations.push(
        `RFC 5322 §2.2 / RFC 2047: header line ${index + 1} has a character outside printable US-ASCII (non-ASCII text goes in encoded words): ${line.slice(0, 60)}`,
      );
    const words = line.match(ENCODED_WORD) ?? [];
    for (const word of words)
      if (word.length > 75) violations.push(`RFC 2047 §2: an encoded word of ${word.length} characters (max 75)`);
    if (words.length > 0 && line.length > 76)
      violations.push(
        `RFC 2047 §2: header line ${index + 1} with encoded words has ${line.length} characters (max 76)`,
      );
  });
  const headerFields = unfold(headerLines);
  for (const [name, value] of headerFields) {
    for (const quoted of value.match(/"(?:[^"\\]|\\.)*"/g) ?? []) {
      if (ENCODED_WORD.test(quoted)) violations.push(`RFC 2047 §5: an encoded word inside a quoted string in ${name}`);
      ENCODED_WORD.lastIndex = 0;
    }
    const lower = name.toLowerCase();
    if (lower === "message-id" || lower === "in-reply-to") {
      if (!MSG_ID.test(value.trim())) violations.push(`RFC 5322 §3.6.4: ${name} is not one msg-id: ${value}`);
    }
    if (lower === "references") {
      const ids = value.trim().split(/\s+/);
      if (ids.some((id) => !MSG_ID.test(id))) violations.push(`RFC 5322 §3.6.4: References is not a list of msg-ids`);
    }
  }
  return violations;
}

function unfold(lines: string[]): [string, string][] {
  const fields: [string, string][] = [];
  for (const line of lines) {
    const last = fields.at(-1);
    if (/^[ \t]/.test(line) && last) last[1] += line;
    else {
      const colon = line.indexOf(":");
      if (colon > 0) fields.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
    }
  }
  return fields;
}

const subjectCore = (subject: string) =>
  subject
    .replace(/^(?:\s*re\s*:\s*)+/i, "")
    .replace(/\s+/g, " ")
    .trim();

function rawHeader(message: StoredMessage, name: string): string {
  const line = message.parsed.headerLines.find((h) => h.key === name.toLowerCase())?.line ?? "";
  return line
    .slice(line.indexOf(":") + 1)
    .replace(/\r?\n[ \t]/g, " ")
    .trim();
}

function idList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === "string" ? value.split(/\s+/).filter(Boolean) : [];
}

/** [messages] criteria 2 and 3 (with RFC 5322 §3.6.4–5) for `message` joining `thread`: what is missing. */
function threadMisses(message: ParsedMail, thread: StoredMessage[]): string[] {
  const misses: string[] = [];
  const inReplyTo = message.inReplyTo?.trim();
  const parent = thread.find((m) => m.parsed.messageId === inReplyTo);
  if (!inReplyTo) misses.push("no In-Reply-To");
  else if (!parent) misses.push("In-Reply-To names no message of the thread");
  const references = idList(message.references);
  if (references.length === 0) misses.push("no References");
  else if (parent) {
    const expected = [
      ...(idList(parent.parsed.references).length > 0
        ? idList(parent.parsed.references)
        : parent.parsed.inReplyTo
          ? [parent.parsed.inReplyTo]
          : []),
      parent.parsed.messageId ?? "",
    ];
    if (expected.join(" ") !== references.join(" "))
      misses.push(`References is not the parent's References + its Message-ID (${expected.join(" ")})`);
  }
  const original = thread[0];
  if (original && subjectCore(message.subject ?? "") !== subjectCore(original.parsed.subject ?? ""))
    misses.push(`the subject does not match the thread's ("${original.parsed.subject}")`);
  return misses;
}

const b64url = (bytes: Buffer) => bytes.toString("base64url");
const newId = () => randomBytes(8).toString("hex");

/** [format]: the formats a message (or a draft's message) can be asked for. */
const FORMATS = ["minimal", "full", "raw", "metadata"];
/** Google's system parameters, accepted by every method (cloud.google.com/apis/docs/system-parameters). */
const SYSTEM_PARAMETERS = ["alt", "fields", "key", "prettyPrint", "quotaUser", "access_token", "callback", "$.xgafv"];

/** [drafts]: a query parameter the method does not define is refused, naming it. */
function unknownParameter(url: URL, known: string[]): Response | null {
  const unknown = [...url.searchParams.keys()].find(
    (name) => !known.includes(name) && !SYSTEM_PARAMETERS.includes(name),
  );
  return unknown
    ? gmailError("invalidArgument", {
        message: `Invalid JSON payload received. Unknown name "${unknown}": Cannot bind query parameter.`,
      })
    : null;
}

function bufferEncoding(charset: string | undefined): BufferEncoding {
  const name = (charset ?? "utf-8").toLowerCase();
  if (name === "iso-8859-1" || name === "latin1" || name === "us-ascii") return "latin1";
  return "utf8";
}

export interface GmailLabel {
  id: string;
  name: string;
  type: "system" | "user";
}

export class GmailFake {
  readonly messages = new Map<string, StoredMessage>();
  readonly received: ReceivedMessage[] = [];
  /** The drafts: each draft's id and the id of the message it holds ([drafts]: the two differ). */
  readonly drafts = new Map<string, string>();
  readonly labels: GmailLabel[] = [
    ...["INBOX", "SENT", "DRAFT", "UNREAD", "STARRED", "IMPORTANT", "SPAM", "TRASH"].map((id) => ({
      id,
      name: id,
      type: "system" as const,
    })),
  ];
  readonly requests: { method: Method; url: string; token: string | null }[] = [];
  readonly refreshes: URLSearchParams[] = [];
  private readonly accessTokens = new Map<string, { scopes: string[]; valid: boolean }>();
  private readonly refreshTokens = new Map<string, { scopes: string[]; revoked: boolean }>();
  private readonly failures: { method: Method | "*"; respond: () => Response }[] = [];
  private issued = 0;

  grant(token: string, scopes: string[]): void {
    this.accessTokens.set(token, { scopes, valid: true });
  }

  grantRefresh(refreshToken: string, scopes: string[]): void {
    this.refreshTokens.set(refreshToken, { scopes, revoked: false });
  }

  /** The access token expires (Gmail answers 401 authError for it). */
  expire(token: string): void {
    const entry = this.accessTokens.get(token);
    if (entry) entry.valid = false;
  }

  /** The user revoked Lifeline's access: the refresh token answers invalid_grant, its access tokens 401. */
  revoke(refreshToken: string): void {
    const entry = this.refreshTokens.get(refreshToken);
    if (entry) entry.revoked = true;
    for (const token of this.accessTokens.values()) token.valid = false;
  }

  /** The next request to `method` (or any, "*") gets this response instead. */
  failNext(method: Method | "*", respond: () => Response, times = 1): void {
    for (let i = 0; i < times; i++) this.failures.push({ method, respond });
  }

  addLabel(name: string): GmailLabel {
    const label = { id: `Label_${this.labels.length + 1}`, name, type: "user" as const };
    this.labels.push(label);
    return label;
  }

  async deliver(raw: string | Buffer, init: { labelIds?: string[]; threadId?: string; date?: Date } = {}) {
    const bytes = typeof raw === "string" ? Buffer.from(raw.replace(/\r?\n/g, "\r\n"), "latin1") : raw;
    const parsed = await simpleParser(bytes);
    const id = newId();
    const stored: StoredMessage = {
      id,
      threadId: init.threadId ?? id,
      labelIds: init.labelIds ?? ["INBOX", "UNREAD"],
      raw: bytes,
      parsed,
      internalDate: (init.date ?? parsed.date ?? new Date()).getTime(),
    };
    this.messages.set(id, stored);
    return stored;
  }

  /** A draft saved in Gmail itself (its web client, another app): `raw` filed under DRAFT; returns the draft's id. */
  async saveDraft(raw: string | Buffer, init: { date?: Date } = {}): Promise<string> {
    const message = await this.deliver(raw, { labelIds: ["DRAFT"], ...init });
    const draftId = `r-${newId()}`;
    this.drafts.set(draftId, message.id);
    return draftId;
  }

  thread(threadId: string): StoredMessage[] {
    return [...this.messages.values()]
      .filter((m) => m.threadId === threadId)
      .sort((a, b) => a.internalDate - b.internalDate);
  }

  private authorise(request: Request, method: Method, format?: string): Response | null {
    const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? null;
    this.requests.push({ method, url: request.url, token });
    const queued = this.failures.findIndex((f) => f.method === method || f.method === "*");
    const entry = token ? this.accessTokens.get(token) : undefined;
    if (!entry?.valid) return gmailError("authError");
    if (!entry.scopes.some((scope) => METHOD_SCOPES[method].includes(scope)))
      return gmailError("insufficientPermissions");
    // [scopes]: gmail.metadata cannot read message bodies.
    const readsBodies = format === "raw" || format === "full";
    if (
      readsBodies &&
      !entry.scopes.some((scope) => scope !== SCOPES.metadata && METHOD_SCOPES[method].includes(scope))
    )
      return gmailError("insufficientPermissions", { message: "Metadata scope doesn't allow format FULL" });
    if (queued !== -1) {
      const [failure] = this.failures.splice(queued, 1);
      return failure?.respond() ?? null;
    }
    return null;
  }

  private resource(message: StoredMessage, format: string, metadataHeaders: string[]) {
    const base = {
      id: message.id,
      threadId: message.threadId,
      labelIds: message.labelIds,
      snippet: (message.parsed.text ?? "").replace(/\s+/g, " ").trim().slice(0, 100),
      sizeEstimate: message.raw.length,
      historyId: "1",
      internalDate: String(message.internalDate),
    };
    if (format === "minimal") return base;
    if (format === "raw") return { ...base, raw: b64url(message.raw) };
    const headers = message.parsed.headerLines.map((h) => ({
      name: h.line.slice(0, h.line.indexOf(":")),
      value: rawHeader(message, h.key),
    }));
    if (format === "metadata") {
      const wanted = metadataHeaders.map((name) => name.toLowerCase());
      return {
        ...base,
        payload: {
          mimeType: String((message.parsed.headers.get("content-type") as { value?: string })?.value ?? "text/plain"),
          headers: wanted.length === 0 ? headers : headers.filter((h) => wanted.includes(h.name.toLowerCase())),
        },
      };
    }
    const contentType = message.parsed.headers.get("content-type") as
      | { value: string; params: Record<string, string> }
      | undefined;
    const charset = contentType?.value.startsWith("multipart/") ? "utf-8" : contentType?.params.charset;
    const part = (mimeType: string, content: string) => ({
      mimeType,
      headers: [{ name: "Content-Type", value: `${mimeType}; charset=${charset ?? "utf-8"}` }],
      body: { size: content.length, data: b64url(Buffer.from(content, bufferEncoding(charset))) },
    });
    const { text, html } = message.parsed;
    // mailparser makes text from an HTML-only message: Gmail serves only the parts the message has.
    const single = contentType && !contentType.value.startsWith("multipart/") ? contentType.value : null;
    const parts = [
      ...(text !== undefined && (single ?? "text/plain") === "text/plain" ? [part("text/plain", text)] : []),
      ...(typeof html === "string" && (single ?? "text/html") === "text/html" ? [part("text/html", html)] : []),
    ];
    return {
      ...base,
      payload:
        parts.length === 1
          ? { ...parts[0], headers }
          : { mimeType: "multipart/alternative", headers, body: { size: 0 }, parts },
    };
  }

  private async receive(method: "messages.send" | "drafts.create", body: unknown): Promise<Response> {
    const message = (method === "drafts.create" ? (body as { message?: unknown })?.message : body) as
      | { raw?: unknown; threadId?: unknown }
      | undefined;
    if (typeof message?.raw !== "string" || message.raw === "")
      return gmailError("invalidArgument", {
        message: "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
      });
    // [messages]: base64url (RFC 4648 §5), not the standard alphabet.
    if (!/^[A-Za-z0-9_-]*={0,2}$/.test(message.raw))
      return gmailError("invalidArgument", { message: "Invalid value for ByteString" });
    const raw = Buffer.from(message.raw, "base64url");
    const parsed = await simpleParser(raw);
    const recipients = [parsed.to, parsed.cc, parsed.bcc]
      .flatMap((field) => (Array.isArray(field) ? field : field ? [field] : []))
      .flatMap((field) => field.value);
    if (method === "messages.send" && recipients.length === 0)
      return gmailError("invalidArgument", { message: "Recipient address required" });
    const requestedThreadId = typeof message.threadId === "string" ? message.threadId : undefined;
    const thread = requestedThreadId ? this.thread(requestedThreadId) : [];
    const misses = requestedThreadId
      ? thread.length === 0
        ? [`no thread ${requestedThreadId}`]
        : threadMisses(parsed, thread)
      : [];
    const id = newId();
    const received: ReceivedMessage = {
      id,
      threadId: requestedThreadId && misses.length === 0 ? requestedThreadId : id,
      labelIds: method === "drafts.create" ? ["DRAFT"] : ["SENT"],
      raw,
      parsed,
      internalDate: Date.now(),
      method,
      requestedThreadId,
      threadMisses: misses,
      violations: messageViolations(raw),
    };
    this.received.push(received);
    this.messages.set(id, received);
    const resource = { id, threadId: received.threadId, labelIds: received.labelIds };
    if (method !== "drafts.create") return HttpResponse.json(resource);
    const draftId = `r-${newId()}`;
    this.drafts.set(draftId, id);
    return HttpResponse.json({ id: draftId, message: resource });
  }

  private matches(message: StoredMessage, q: string): boolean {
    const terms = q.match(/\S+:"[^"]*"|"[^"]*"|\S+/g) ?? [];
    return terms.every((term) => {
      const [, key, value = ""] = /^(?:(\w+):)?"?(.*?)"?$/.exec(term) ?? [];
      const needle = value.toLowerCase();
      if (key === "from") return (message.parsed.from?.text ?? "").toLowerCase().includes(needle);
      if (key === "in") return message.labelIds.includes(needle === "drafts" ? "DRAFT" : needle.toUpperCase());
      return `${message.parsed.subject ?? ""} ${message.parsed.text ?? ""}`.toLowerCase().includes(needle);
    });
  }

  handlers(): HttpHandler[] {
    return [
      http.post(TOKEN_URL, async ({ request }) => {
        const form = new URLSearchParams(await request.text());
        this.refreshes.push(form);
        const entry = this.refreshTokens.get(form.get("refresh_token") ?? "");
        if (form.get("grant_type") !== "refresh_token" || !entry || entry.revoked)
          return HttpResponse.json(
            { error: "invalid_grant", error_description: "Token has been expired or revoked." },
            { status: 400 },
          );
        this.issued += 1;
        const token = `access-${this.issued}-${newId()}`;
        this.grant(token, entry.scopes);
        return HttpResponse.json({
          access_token: token,
          expires_in: 3599,
          scope: entry.scopes.join(" "),
          token_type: "Bearer",
        });
      }),
      http.get(`${GMAIL_API}/messages`, ({ request }) => {
        const refused = this.authorise(request, "messages.list");
        if (refused) return refused;
        const params = new URL(request.url).searchParams;
        const max = Number(params.get("maxResults") ?? 100);
        const found = [...this.messages.values()]
          .filter((m) => this.matches(m, params.get("q") ?? ""))
          .sort((a, b) => b.internalDate - a.internalDate)
          .slice(0, max);
        return HttpResponse.json(
          found.length === 0
            ? { resultSizeEstimate: 0 }
            : { messages: found.map((m) => ({ id: m.id, threadId: m.threadId })), resultSizeEstimate: found.length },
        );
      }),
      http.get(`${GMAIL_API}/messages/:id`, ({ request, params }) => {
        const search = new URL(request.url).searchParams;
        const format = search.get("format") ?? "full";
        const refused = this.authorise(request, "messages.get", format);
        if (refused) return refused;
        const message = this.messages.get(String(params.id));
        if (!message) return gmailError("notFound");
        return HttpResponse.json(this.resource(message, format, search.getAll("metadataHeaders")));
      }),
      http.post(`${GMAIL_API}/messages/send`, async ({ request }) => {
        const refused = this.authorise(request, "messages.send");
        return refused ?? this.receive("messages.send", await request.json());
      }),
      http.post(`${GMAIL_API}/drafts`, async ({ request }) => {
        const refused = this.authorise(request, "drafts.create");
        return refused ?? this.receive("drafts.create", await request.json());
      }),
      http.get(`${GMAIL_API}/drafts`, ({ request }) => {
        const url = new URL(request.url);
        const refused =
          this.authorise(request, "drafts.list") ??
          unknownParameter(url, ["maxResults", "pageToken", "q", "includeSpamTrash"]);
        if (refused) return refused;
        // [drafts] gives 500 as the most maxResults allows; larger is served as 500 (the reference
        // documents no error for it: the fake's choice).
        const max = Math.min(Number(url.searchParams.get("maxResults") ?? 100), 500);
        const q = url.searchParams.get("q") ?? "";
        const found = [...this.drafts.entries()]
          .map(([id, messageId]) => ({ id, message: this.messages.get(messageId) }))
          .filter((d): d is { id: string; message: StoredMessage } => Boolean(d.message && this.matches(d.message, q)))
          .sort((a, b) => b.message.internalDate - a.message.internalDate)
          .slice(0, max);
        // [drafts]: each draft's message is only its id and threadId.
        return HttpResponse.json(
          found.length === 0
            ? { resultSizeEstimate: 0 }
            : {
                drafts: found.map((d) => ({ id: d.id, message: { id: d.message.id, threadId: d.message.threadId } })),
                resultSizeEstimate: found.length,
              },
        );
      }),
      http.get(`${GMAIL_API}/drafts/:id`, ({ request, params }) => {
        const url = new URL(request.url);
        const format = url.searchParams.get("format") ?? "full";
        const refused = this.authorise(request, "drafts.get", format) ?? unknownParameter(url, ["format"]);
        if (refused) return refused;
        if (!FORMATS.includes(format))
          return gmailError("invalidArgument", {
            message: `Invalid value at 'format' (type.googleapis.com/google.apps.gmail.v1.Format), "${format}"`,
          });
        const messageId = this.drafts.get(String(params.id));
        const message = messageId ? this.messages.get(messageId) : undefined;
        if (!message) return gmailError("notFound", { message: "Requested entity was not found." });
        return HttpResponse.json({ id: String(params.id), message: this.resource(message, format, []) });
      }),
      http.post(`${GMAIL_API}/messages/:id/modify`, async ({ request, params }) => {
        const refused = this.authorise(request, "messages.modify");
        if (refused) return refused;
        const message = this.messages.get(String(params.id));
        if (!message) return gmailError("notFound");
        const body = (await request.json()) as { addLabelIds?: string[]; removeLabelIds?: string[] };
        for (const id of [...(body.addLabelIds ?? []), ...(body.removeLabelIds ?? [])])
          if (!this.labels.some((label) => label.id === id))
            return gmailError("invalidArgument", { message: `Invalid label: ${id}` });
        message.labelIds = [
          ...new Set(
            [...message.labelIds, ...(body.addLabelIds ?? [])].filter((l) => !body.removeLabelIds?.includes(l)),
          ),
        ];
        return HttpResponse.json({ id: message.id, threadId: message.threadId, labelIds: message.labelIds });
      }),
      http.get(`${GMAIL_API}/labels`, ({ request }) => {
        const refused = this.authorise(request, "labels.list");
        return refused ?? HttpResponse.json({ labels: this.labels });
      }),
    ];
  }
}
