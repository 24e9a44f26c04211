/**
 * The user's Gmail over the Gmail API (@googleapis/gmail), with the Google OAuth tokens of their
 * Auth.js `accounts` row. An access token that has expired (or expires within a minute) is
 * refreshed with the refresh token first, and the new one written back; a 401 from Gmail refreshes
 * once and retries. Gmail's failures become MailboxErrors the user can act on:
 * 401 → reconnect, 403 → missing permission, 429 → wait, 5xx and network → try again later.
 */
import { auth, gmail_v1 } from "@googleapis/gmail";
import type { Db } from "@/db/client";
import { type ProviderAccount, updateOAuthTokens } from "@/db/queries/accounts";
import { base64url, fromBase64url, toRfc2822 } from "./mime";
import {
  type Draft,
  type Email,
  type EmailSummary,
  type Mailbox,
  MailboxError,
  type MailLabel,
  snippetOf,
} from "./types";

export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
const REFRESH_MARGIN_MS = 60_000;

export interface GmailMailboxInput {
  db: Db;
  userId: string;
  account: ProviderAccount;
  clientId: string;
  clientSecret: string;
  now?: () => Date;
  fetch?: typeof globalThis.fetch;
}

function statusOf(error: unknown): number | null {
  const candidate = error as { status?: unknown; code?: unknown; response?: { status?: unknown } };
  const status = candidate.response?.status ?? candidate.status ?? candidate.code;
  return typeof status === "number"
    ? status
    : typeof status === "string" && /^\d{3}$/.test(status)
      ? Number(status)
      : null;
}

export function mailboxErrorOf(error: unknown): MailboxError {
  if (error instanceof MailboxError) return error;
  const status = statusOf(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (status === 401) return new MailboxError("unauthorized", detail);
  if (status === 403) return new MailboxError("forbidden", detail);
  if (status === 404) return new MailboxError("not_found", detail);
  if (status === 429) return new MailboxError("rate_limited", detail);
  if (status === 400) return new MailboxError("invalid", detail);
  return new MailboxError("unavailable", detail);
}

type Header = gmail_v1.Schema$MessagePartHeader;
const header = (headers: Header[] | undefined, name: string) =>
  headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? "";
const addressList = (value: string) =>
  value
    .split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)
    .map((part) => part.trim())
    .filter(Boolean);

function summaryOf(message: gmail_v1.Schema$Message): EmailSummary {
  const headers = message.payload?.headers ?? [];
  const labels = message.labelIds ?? [];
  const date = message.internalDate ? new Date(Number(message.internalDate)) : new Date(header(headers, "Date"));
  return {
    id: message.id ?? "",
    from: header(headers, "From"),
    to: addressList(header(headers, "To")),
    subject: header(headers, "Subject"),
    snippet: snippetOf(message.snippet ?? ""),
    date: Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString(),
    labels,
    unread: labels.includes("UNREAD"),
  };
}

/** The text of a message: its text/plain part, else its HTML without tags, else the snippet. */
export function bodyOf(part: gmail_v1.Schema$MessagePart | undefined): string {
  const find = (p: gmail_v1.Schema$MessagePart | undefined, type: string): string | null => {
    if (!p) return null;
    if (p.mimeType === type && p.body?.data) return fromBase64url(p.body.data);
    for (const child of p.parts ?? []) {
      const found = find(child, type);
      if (found !== null) return found;
    }
    return null;
  };
  const plain = find(part, "text/plain");
  if (plain !== null) return plain;
  const html = find(part, "text/html");
  if (html !== null)
    return html
      .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/gi, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  return "";
}

export function gmailMailbox(input: GmailMailboxInput): Mailbox {
  const now = input.now ?? (() => new Date());
  const doFetch = input.fetch ?? globalThis.fetch;
  let account = input.account;
  const client = new auth.OAuth2();
  const api = new gmail_v1.Gmail({ auth: client });

  const refresh = async (): Promise<void> => {
    if (!account.refresh_token) throw new MailboxError("unauthorized", "no refresh token");
    let response: Response;
    try {
      response = await doFetch(GOOGLE_TOKEN_URL, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          client_id: input.clientId,
          client_secret: input.clientSecret,
          refresh_token: account.refresh_token,
          grant_type: "refresh_token",
        }),
      });
    } catch (error) {
      throw new MailboxError("unavailable", `token refresh: ${String(error)}`);
    }
    if (!response.ok) {
      const status = response.status;
      throw new MailboxError(
        status === 400 || status === 401 ? "unauthorized" : mailboxErrorOf({ status }).code,
        `token refresh: ${status}`,
      );
    }
    const tokens = (await response.json()) as {
      access_token?: string;
      expires_in?: number;
      scope?: string;
      token_type?: string;
      id_token?: string;
      refresh_token?: string;
    };
    if (!tokens.access_token) throw new MailboxError("unauthorized", "token refresh returned no access token");
    const expiresAt = Math.floor(now().getTime() / 1000) + (tokens.expires_in ?? 3600);
    const updated = {
      access_token: tokens.access_token,
      expires_at: expiresAt,
      scope: tokens.scope ?? account.scope,
      token_type: tokens.token_type ?? account.token_type,
      id_token: tokens.id_token ?? account.id_token,
      refresh_token: tokens.refresh_token ?? account.refresh_token,
    };
    await updateOAuthTokens(input.db, {
      userId: input.userId,
      provider: account.provider,
      providerAccountId: account.providerAccountId,
      tokens: updated,
    });
    account = { ...account, ...updated };
  };

  const fresh = async () => {
    const expired = !account.access_token || (account.expires_at ?? 0) * 1000 <= now().getTime() + REFRESH_MARGIN_MS;
    if (expired) await refresh();
    client.setCredentials({ access_token: account.access_token ?? undefined });
  };

  /** Runs a Gmail call with a fresh token; a 401 refreshes once and retries. */
  const call = async <T>(request: () => Promise<{ data: T }>): Promise<T> => {
    await fresh();
    try {
      return (await request()).data;
    } catch (error) {
      if (statusOf(error) !== 401 || !account.refresh_token) throw mailboxErrorOf(error);
      await refresh();
      client.setCredentials({ access_token: account.access_token ?? undefined });
      try {
        return (await request()).data;
      } catch (retryError) {
        throw mailboxErrorOf(retryError);
      }
    }
  };

  const labelIds = async (names: string[]): Promise<string[]> => {
    if (names.length === 0) return [];
    const { labels = [] } = await call(() => api.users.labels.list({ userId: "me" }));
    return names.map(
      (name) => labels.find((l) => l.id === name || l.name?.toLowerCase() === name.toLowerCase())?.id ?? name,
    );
  };

  return {
    kind: "gmail",
    description: "Gmail",
    async search(query, max) {
      const list = await call(() => api.users.messages.list({ userId: "me", q: query, maxResults: max }));
      const ids = (list.messages ?? []).map((m) => m.id).filter((id): id is string => Boolean(id));
      const messages = await Promise.all(
        ids.map((id) =>
          call(() =>
            api.users.messages.get({
              userId: "me",
              id,
              format: "metadata",
              metadataHeaders: ["From", "To", "Subject", "Date"],
            }),
          ),
        ),
      );
      return messages.map(summaryOf);
    },
    async read(id): Promise<Email> {
      const message = await call(() => api.users.messages.get({ userId: "me", id, format: "full" }));
      const summary = summaryOf(message);
      return {
        ...summary,
        cc: addressList(header(message.payload?.headers ?? [], "Cc")),
        body: bodyOf(message.payload ?? undefined),
      };
    },
    async listLabels(): Promise<MailLabel[]> {
      const { labels = [] } = await call(() => api.users.labels.list({ userId: "me" }));
      return labels.map((label) => ({
        id: label.id ?? "",
        name: label.name ?? label.id ?? "",
        type: label.type === "system" ? "system" : "user",
      }));
    },
    async createDraft(draft: Draft) {
      const created = await call(() =>
        api.users.drafts.create({ userId: "me", requestBody: { message: { raw: base64url(toRfc2822(draft)) } } }),
      );
      return { draftId: created.id ?? "" };
    },
    async modifyLabels(id, add, remove) {
      const [addIds, removeIds] = await Promise.all([labelIds(add), labelIds(remove)]);
      const modified = await call(() =>
        api.users.messages.modify({
          userId: "me",
          id,
          requestBody: { addLabelIds: addIds, removeLabelIds: removeIds },
        }),
      );
      return { id, labels: modified.labelIds ?? [] };
    },
    async send(draft: Draft) {
      const sent = await call(() =>
        api.users.messages.send({ userId: "me", requestBody: { raw: base64url(toRfc2822(draft)) } }),
      );
      return { messageId: sent.id ?? "" };
    },
  };
}
