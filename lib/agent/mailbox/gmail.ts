/**
 * One token refresh per account at a time: shared in-process (`RefreshFlights`) and, across
 * instances, under a lock on the account's row. `invalid_grant` marks the account revoked so later
 * turns use the demo mailbox instead of failing the same way.
 *
 * Errors follow developers.google.com/gmail/api/guides/handle-errors: rate limits are retried with
 * backoff honouring Retry-After; 5xx only for calls that change nothing.
 *
 * `format: "raw"` is the one format whose content Gmail documents exactly, so every part's charset
 * reaches a real MIME parser; the cost is that a read also downloads attachments.
 */

import { auth, gmail_v1 } from "@googleapis/gmail";
import { agentConfig } from "@/core/config";
import type { Db } from "@/db/client";
import { lockAccountTokens, type ProviderAccount } from "@/db/queries/accounts";
import { composeMessage, decodeHeader, parseMessage } from "./mime";
import { addressOf, unseenAddresses } from "./recipients";
import {
  type Draft,
  type DraftSummary,
  type Email,
  type EmailSummary,
  type Mailbox,
  MailboxError,
  type MailLabel,
  type SavedDraft,
  snippetOf,
  unknownLabelsError,
} from "./types";

const REFRESH_MARGIN_MS = 60_000;
const REFRESH_TIMEOUT_MS = 10_000;

export type RefreshFlights = Map<string, Promise<ProviderAccount>>;
export const createRefreshFlights = (): RefreshFlights => new Map();
const processFlights = createRefreshFlights();

export interface GmailMailboxInput {
  db: Db;
  userId: string;
  account: ProviderAccount;
  clientId: string;
  clientSecret: string;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** A test gives each simulated server its own. */
  refreshFlights?: RefreshFlights;
}

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string; errors?: { reason?: string }[] } | string;
  error_description?: string;
}

type ErrorLike = {
  status?: unknown;
  code?: unknown;
  message?: unknown;
  response?: { status?: unknown; data?: unknown; headers?: unknown };
};

function statusOf(error: unknown): number | null {
  const candidate = error as ErrorLike;
  const status = candidate.response?.status ?? candidate.status ?? candidate.code;
  return typeof status === "number"
    ? status
    : typeof status === "string" && /^\d{3}$/.test(status)
      ? Number(status)
      : null;
}

function reasonOf(error: unknown): string | null {
  const data = (error as ErrorLike).response?.data as GoogleErrorBody | undefined;
  if (!data) return null;
  if (typeof data.error === "string") return data.error;
  return data.error?.errors?.[0]?.reason ?? data.error?.status ?? null;
}

function messageOf(error: unknown): string {
  const data = (error as ErrorLike).response?.data as GoogleErrorBody | undefined;
  if (data && typeof data.error === "object" && data.error.message) return data.error.message;
  return error instanceof Error ? error.message : String(error);
}

/** RFC 9110 §10.2.3: seconds or an HTTP date. */
function retryAfterMs(error: unknown, now: Date): number | null {
  const headers = (error as ErrorLike).response?.headers;
  // gaxios 7 gives a fetch Headers (possibly of another realm than this global); older ones an object.
  const get = (headers as { get?: unknown } | undefined)?.get;
  const value =
    typeof get === "function"
      ? (get.call(headers, "retry-after") as string | null)
      : headers && typeof headers === "object"
        ? ((headers as Record<string, unknown>)["retry-after"] as string | undefined)
        : undefined;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}

const RATE_LIMIT_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded"]);

export function mailboxErrorOf(error: unknown): MailboxError {
  if (error instanceof MailboxError) return error;
  const status = statusOf(error);
  const reason = reasonOf(error);
  const detail = `${status ?? "network"}${reason ? ` ${reason}` : ""}: ${messageOf(error)}`;
  if (status === 401) return new MailboxError("unauthorized", detail);
  if (status === 429 || (status === 403 && reason && RATE_LIMIT_REASONS.has(reason)))
    return new MailboxError("rate_limited", detail);
  if (status === 403 && reason === "dailyLimitExceeded") return new MailboxError("quota_exhausted", detail);
  if (status === 403 && reason === "accessNotConfigured") return new MailboxError("api_disabled", detail);
  if (status === 403 && reason === "domainPolicy") return new MailboxError("domain_policy", detail);
  if (status === 403) return new MailboxError("forbidden", detail);
  if (status === 404) return new MailboxError("not_found", detail);
  if (status === 400) return MailboxError.invalid(detail, messageOf(error));
  return new MailboxError("unavailable", detail);
}

const isInvalidGrant = (error: unknown) => statusOf(error) === 400 && reasonOf(error) === "invalid_grant";

type Header = gmail_v1.Schema$MessagePartHeader;
const header = (headers: Header[] | undefined, name: string) =>
  decodeHeader(headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? "");
const addressList = (value: string) =>
  value
    .split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)
    .map((part) => part.trim())
    .filter(Boolean);

const isoDate = (message: gmail_v1.Schema$Message, fallback: string | null) => {
  const date = message.internalDate ? new Date(Number(message.internalDate)) : new Date(fallback ?? "");
  return Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
};

function summaryOf(message: gmail_v1.Schema$Message): EmailSummary {
  const headers = message.payload?.headers ?? [];
  const labels = message.labelIds ?? [];
  return {
    id: message.id ?? "",
    from: header(headers, "From"),
    to: addressList(header(headers, "To")),
    subject: header(headers, "Subject"),
    snippet: snippetOf(message.snippet ?? ""),
    date: isoDate(message, header(headers, "Date")),
    labels,
    unread: labels.includes("UNREAD"),
  };
}

function draftSummaryOf(draft: gmail_v1.Schema$Draft): DraftSummary {
  const message = draft.message ?? {};
  const { to, subject, snippet, date } = summaryOf(message);
  return { id: draft.id ?? "", messageId: message.id ?? "", to, subject, snippet, date };
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function gmailMailbox(input: GmailMailboxInput): Mailbox {
  const now = input.now ?? (() => new Date());
  const sleep = input.sleep ?? defaultSleep;
  const flights = input.refreshFlights ?? processFlights;
  const key = {
    userId: input.userId,
    provider: input.account.provider,
    providerAccountId: input.account.providerAccountId,
  };
  const flightKey = `${key.provider}:${key.providerAccountId}`;
  let account = input.account;
  const client = new auth.OAuth2({ clientId: input.clientId, clientSecret: input.clientSecret });
  // One retry policy, ours (below): the client library's own would retry 429s without Retry-After.
  const api = new gmail_v1.Gmail({ auth: client, retry: false });

  const expiresSoon = (row: ProviderAccount) =>
    !row.access_token || (row.expires_at ?? 0) * 1000 <= now().getTime() + REFRESH_MARGIN_MS;

  const refreshedAccount = (stale: string | null): Promise<ProviderAccount> =>
    lockAccountTokens(input.db, key, async (row, tokens) => {
      if (!row) return { error: new MailboxError("not_connected", "the Google account is no longer linked") };
      // Another call or instance met the revocation first: say the same, and ask Google nothing.
      if (row.tokensRevokedAt) return { error: new MailboxError("revoked", "the grant was revoked") };
      if (row.access_token && row.access_token !== stale && !expiresSoon(row)) return { account: row };
      if (!row.refresh_token) return { error: new MailboxError("unauthorized", "no refresh token") };
      // The row stays locked (and, on PGlite, the one connection busy) until Google answers: bounded.
      const oauth = new auth.OAuth2({
        clientId: input.clientId,
        clientSecret: input.clientSecret,
        transporterOptions: { timeout: REFRESH_TIMEOUT_MS },
      });
      oauth.setCredentials({ refresh_token: row.refresh_token });
      try {
        const { credentials } = await oauth.refreshAccessToken();
        if (!credentials.access_token)
          return { error: new MailboxError("unauthorized", "token refresh returned no access token") };
        const updated = await tokens.store({
          access_token: credentials.access_token,
          expires_at: Math.floor((credentials.expiry_date ?? now().getTime() + 3_600_000) / 1000),
          scope: credentials.scope ?? row.scope,
          token_type: credentials.token_type ?? row.token_type,
          id_token: credentials.id_token ?? row.id_token,
          refresh_token: credentials.refresh_token ?? row.refresh_token,
        });
        return { account: updated };
      } catch (error) {
        if (isInvalidGrant(error)) {
          await tokens.revoke(now());
          return { error: new MailboxError("revoked", `token refresh: ${messageOf(error)}`) };
        }
        const status = statusOf(error);
        return {
          error: new MailboxError(
            status === null || status >= 500 ? "unavailable" : "unauthorized",
            `token refresh: ${status ?? "network"} ${messageOf(error)}`,
          ),
        };
      }
    }).then((outcome) => {
      if ("error" in outcome) throw outcome.error;
      return outcome.account;
    });

  const refresh = async (stale: string | null) => {
    if (account.access_token !== stale) return; // another call of this mailbox already did
    let flight = flights.get(flightKey);
    if (!flight) {
      flight = refreshedAccount(stale).finally(() => flights.delete(flightKey));
      flights.set(flightKey, flight);
    }
    account = await flight;
  };

  const call = async <T>(request: () => Promise<{ data: T }>, { idempotent }: { idempotent: boolean }) => {
    const { gmailRetries, gmailBackoffBaseMs, gmailMaxRetryWaitMs } = agentConfig;
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      if (expiresSoon(account)) await refresh(account.access_token);
      const used = account.access_token;
      client.setCredentials({ access_token: used ?? undefined });
      try {
        return (await request()).data;
      } catch (error) {
        if (statusOf(error) === 401 && !refreshed) {
          refreshed = true;
          await refresh(used);
          attempt--;
          continue;
        }
        const failure = mailboxErrorOf(error);
        const retriable = failure.code === "rate_limited" || (idempotent && failure.code === "unavailable");
        if (!retriable || attempt >= gmailRetries) throw failure;
        const asked = retryAfterMs(error, now());
        if (asked !== null && asked > gmailMaxRetryWaitMs) throw failure;
        const backoff = gmailBackoffBaseMs * 2 ** attempt;
        await sleep(asked ?? backoff + Math.floor(Math.random() * gmailBackoffBaseMs));
      }
    }
  };
  const read = { idempotent: true };
  const write = { idempotent: false };

  const listLabels = async (): Promise<MailLabel[]> => {
    const { labels = [] } = await call(() => api.users.labels.list({ userId: "me" }), read);
    return labels.map((label) => ({
      id: label.id ?? "",
      name: label.name ?? label.id ?? "",
      type: label.type === "system" ? "system" : "user",
    }));
  };

  const labelIds = async (add: string[], remove: string[]): Promise<[string[], string[]]> => {
    if (add.length === 0 && remove.length === 0) return [[], []];
    const labels = await listLabels();
    const find = (name: string) =>
      labels.find((l) => l.id === name) ?? labels.find((l) => l.name.toLowerCase() === name.toLowerCase());
    const unknown = [...add, ...remove].filter((name) => !find(name));
    if (unknown.length > 0) throw unknownLabelsError(unknown, labels);
    const ids = (names: string[]) => names.map((name) => find(name)?.id ?? name);
    return [ids(add), ids(remove)];
  };

  const raw = async (draft: Draft) => (await composeMessage(draft)).toString("base64url");

  return {
    kind: "gmail",
    description: "Gmail",
    async search(query, max) {
      const list = await call(() => api.users.messages.list({ userId: "me", q: query, maxResults: max }), read);
      const ids = (list.messages ?? []).map((m) => m.id).filter((id): id is string => Boolean(id));
      const messages = await Promise.all(
        ids.map((id) =>
          call(
            () =>
              api.users.messages.get({
                userId: "me",
                id,
                format: "metadata",
                metadataHeaders: ["From", "To", "Subject", "Date"],
              }),
            read,
          ),
        ),
      );
      return messages.map(summaryOf);
    },
    async neverSeen(addresses) {
      const unseen = await Promise.all(
        unseenAddresses(addresses, []).map(async (recipient) => {
          const address = addressOf(recipient);
          // Gmail's search operators (support.google.com/mail/answer/7190); drafts are not correspondence.
          const q = `{from:${address} to:${address} cc:${address}} -in:drafts`;
          const list = await call(() => api.users.messages.list({ userId: "me", q, maxResults: 1 }), read);
          return (list.messages ?? []).length === 0 ? [recipient] : [];
        }),
      );
      return unseen.flat();
    },
    async read(id): Promise<Email> {
      const message = await call(() => api.users.messages.get({ userId: "me", id, format: "raw" }), read);
      const parsed = await parseMessage(Buffer.from(message.raw ?? "", "base64url"));
      const labels = message.labelIds ?? [];
      return {
        id: message.id ?? id,
        threadId: message.threadId ?? message.id ?? id,
        messageId: parsed.messageId,
        inReplyTo: parsed.inReplyTo,
        references: parsed.references,
        from: parsed.from,
        to: parsed.to,
        cc: parsed.cc,
        subject: parsed.subject,
        snippet: snippetOf(parsed.text || (message.snippet ?? "")),
        date: isoDate(message, parsed.date),
        labels,
        unread: labels.includes("UNREAD"),
        body: parsed.text,
      };
    },
    listLabels,
    async createDraft(draft: Draft) {
      const message = { raw: await raw(draft), ...(draft.thread ? { threadId: draft.thread.threadId } : {}) };
      const created = await call(() => api.users.drafts.create({ userId: "me", requestBody: { message } }), write);
      return { draftId: created.id ?? "", threadId: created.message?.threadId ?? undefined };
    },
    async listDrafts(max) {
      // drafts.list gives ids only; drafts.get in the metadata format adds the headers and snippet.
      const list = await call(() => api.users.drafts.list({ userId: "me", maxResults: max }), read);
      const ids = (list.drafts ?? []).map((d) => d.id).filter((id): id is string => Boolean(id));
      const drafts = await Promise.all(
        ids.map((id) => call(() => api.users.drafts.get({ userId: "me", id, format: "metadata" }), read)),
      );
      return drafts.map(draftSummaryOf).sort((a, b) => b.date.localeCompare(a.date));
    },
    async readDraft(id): Promise<SavedDraft> {
      const draft = await call(() => api.users.drafts.get({ userId: "me", id, format: "raw" }), read);
      const message = draft.message ?? {};
      const parsed = await parseMessage(Buffer.from(message.raw ?? "", "base64url"));
      return {
        id: draft.id ?? id,
        messageId: message.id ?? "",
        threadId: message.threadId ?? message.id ?? "",
        to: parsed.to,
        cc: parsed.cc,
        bcc: parsed.bcc,
        subject: parsed.subject,
        snippet: snippetOf(parsed.text || (message.snippet ?? "")),
        date: isoDate(message, parsed.date),
        body: parsed.text,
      };
    },
    async modifyLabels(id, add, remove) {
      const [addLabelIds, removeLabelIds] = await labelIds(add, remove);
      const modified = await call(
        () => api.users.messages.modify({ userId: "me", id, requestBody: { addLabelIds, removeLabelIds } }),
        read,
      );
      return { id, labels: modified.labelIds ?? [] };
    },
    async send(draft: Draft) {
      const requestBody = { raw: await raw(draft), ...(draft.thread ? { threadId: draft.thread.threadId } : {}) };
      const sent = await call(() => api.users.messages.send({ userId: "me", requestBody }), write);
      return { messageId: sent.id ?? "", threadId: sent.threadId ?? undefined };
    },
  };
}
