/**
 * The Gmail mailbox against the Gmail API as msw serves it (the googleapis client's real HTTP
 * requests are intercepted), with tokens in the accounts table on both databases: search → read,
 * send's exact message, token refresh written back, Gmail's 401/403/429/500 as clear messages and
 * failed operations in the log, and one user never reaching another's tokens.
 */
import { eq } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "@/db/client";
import { accounts, gmailOperations } from "@/db/schema";
import { createTestDatabase, DB_KINDS } from "@/tests/db";
import { createUser } from "@/tests/fixtures/memories";
import { createMailTools } from "../tools";
import { GOOGLE_TOKEN_URL } from "./gmail";
import { mailboxForUser, mailboxOfKind } from "./index";
import { base64url, fromBase64url } from "./mime";

const GMAIL = "https://gmail.googleapis.com/gmail/v1/users/me";
const NOW = new Date("2026-11-30T12:00:00.000Z");
const google = { clientId: "client-id", clientSecret: "client-secret" };
const SCOPE = "openid email https://www.googleapis.com/auth/gmail.readonly https://www.googleapis.com/auth/gmail.send";

const requests: { method: string; url: string; auth: string | null; body: string }[] = [];
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

function record(request: Request, body = "") {
  requests.push({ method: request.method, url: request.url, auth: request.headers.get("authorization"), body });
}

const message = (id: string, from: string, subject: string, body: string) => ({
  id,
  threadId: id,
  labelIds: ["INBOX", "UNREAD"],
  snippet: body.slice(0, 40),
  internalDate: String(NOW.getTime() - 3_600_000),
  payload: {
    mimeType: "multipart/alternative",
    headers: [
      { name: "From", value: from },
      { name: "To", value: "ada@example.com" },
      { name: "Subject", value: subject },
    ],
    parts: [
      { mimeType: "text/plain", body: { data: base64url(body) } },
      { mimeType: "text/html", body: { data: base64url(`<p>${body}</p>`) } },
    ],
  },
});

/** A Gmail that accepts only `token`, with one message from Maya. */
function gmailAccepting(token: string) {
  const maya = message("m1", "Maya Chen <maya@example.com>", "Dinner on Friday?", "Are you free for dinner on Friday?");
  const authorised = (request: Request) => request.headers.get("authorization") === `Bearer ${token}`;
  const unauthorised = () =>
    HttpResponse.json({ error: { code: 401, message: "Invalid Credentials" } }, { status: 401 });
  return [
    http.get(`${GMAIL}/messages`, ({ request }) => {
      record(request);
      if (!authorised(request)) return unauthorised();
      const q = new URL(request.url).searchParams.get("q") ?? "";
      return HttpResponse.json(
        q.includes("maya") ? { messages: [{ id: "m1", threadId: "m1" }] } : { resultSizeEstimate: 0 },
      );
    }),
    http.get(`${GMAIL}/messages/:id`, ({ request, params }) => {
      record(request);
      if (!authorised(request)) return unauthorised();
      return params.id === "m1"
        ? HttpResponse.json(maya)
        : HttpResponse.json({ error: { code: 404 } }, { status: 404 });
    }),
    http.post(`${GMAIL}/messages/send`, async ({ request }) => {
      const body = await request.text();
      record(request, body);
      if (!authorised(request)) return unauthorised();
      return HttpResponse.json({ id: "sent-1", labelIds: ["SENT"] });
    }),
  ];
}

describe.each(DB_KINDS)("the Gmail mailbox on %s (msw)", (kind) => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.db;
  });
  afterAll(async () => database?.close());

  async function linkedUser(name: string, tokens: { access: string; refresh: string | null; expiresIn: number }) {
    const userId = await createUser(db, name);
    await db.insert(accounts).values({
      userId,
      type: "oidc",
      provider: "google",
      providerAccountId: `google-${name}-${kind}`,
      access_token: tokens.access,
      refresh_token: tokens.refresh,
      expires_at: Math.floor(NOW.getTime() / 1000) + tokens.expiresIn,
      scope: SCOPE,
      token_type: "bearer",
    });
    return userId;
  }
  const options = { google, now: () => NOW };

  it("search then read, with the user's access token; the text/plain part is the body", async () => {
    const userId = await linkedUser("ada", { access: "token-ada", refresh: "refresh-ada", expiresIn: 3600 });
    server.use(...gmailAccepting("token-ada"));
    const mailbox = await mailboxForUser(db, userId, options);
    expect(mailbox.kind).toBe("gmail");
    const [found] = await mailbox.search("from:maya", 5);
    expect(found).toMatchObject({
      id: "m1",
      from: "Maya Chen <maya@example.com>",
      subject: "Dinner on Friday?",
      unread: true,
    });
    const email = await mailbox.read("m1");
    expect(email.body).toBe("Are you free for dinner on Friday?");
    expect(requests.every((r) => r.auth === "Bearer token-ada")).toBe(true);
    expect(new URL(requests[0]?.url ?? "").searchParams.get("q")).toBe("from:maya");
  });

  it("send posts exactly the draft as an RFC 2822 message", async () => {
    const userId = await linkedUser("bea", { access: "token-bea", refresh: "refresh-bea", expiresIn: 3600 });
    server.use(...gmailAccepting("token-bea"));
    const mailbox = await mailboxOfKind(db, userId, "gmail", options);
    await mailbox.send({ to: ["maya@example.com"], cc: [], bcc: [], subject: "Re: Dinner", body: "Friday works!" });
    const send = requests.find((r) => r.url.endsWith("/messages/send"));
    const raw = fromBase64url((JSON.parse(send?.body ?? "{}") as { raw: string }).raw);
    expect(raw).toContain("To: maya@example.com\r\n");
    expect(raw).toContain("Subject: Re: Dinner\r\n");
    expect(raw.endsWith("\r\n\r\nFriday works!")).toBe(true);
  });

  it("an expired token is refreshed with the refresh token, stored, and used", async () => {
    const userId = await linkedUser("cy", { access: "old-token", refresh: "refresh-cy", expiresIn: -10 });
    let refreshBody = "";
    server.use(
      http.post(GOOGLE_TOKEN_URL, async ({ request }) => {
        refreshBody = await request.text();
        return HttpResponse.json({ access_token: "new-token", expires_in: 3599, scope: SCOPE, token_type: "Bearer" });
      }),
      ...gmailAccepting("new-token"),
    );
    const mailbox = await mailboxForUser(db, userId, options);
    expect(await mailbox.search("from:maya", 5)).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(refreshBody))).toEqual({
      client_id: "client-id",
      client_secret: "client-secret",
      refresh_token: "refresh-cy",
      grant_type: "refresh_token",
    });
    const [stored] = await db.select().from(accounts).where(eq(accounts.userId, userId));
    expect(stored).toMatchObject({ access_token: "new-token", refresh_token: "refresh-cy" });
    expect(stored?.expires_at).toBe(Math.floor(NOW.getTime() / 1000) + 3599);
  });

  it("Gmail's 401 (after one refresh), 403, 429 and 500: a clear message, and a failed operation in the log", async () => {
    const cases: [number, RegExp, string][] = [
      [401, /Reconnect Google/, "unauthorized"],
      [403, /lacks the permission/, "forbidden"],
      [429, /rate limiting/, "rate_limited"],
      [500, /not reachable/, "unavailable"],
    ];
    for (const [status, said, code] of cases) {
      const userId = await linkedUser(`err${status}`, { access: "token", refresh: "refresh", expiresIn: 3600 });
      server.use(
        http.post(GOOGLE_TOKEN_URL, () => HttpResponse.json({ access_token: "token", expires_in: 3600 })),
        http.get(`${GMAIL}/messages`, () => HttpResponse.json({ error: { code: status } }, { status })),
      );
      const mailbox = await mailboxForUser(db, userId, options);
      const [search] = createMailTools({ db, mailbox, context: { userId, conversationId: null, messageId: null } });
      const result = JSON.parse(String(await search?.invoke({ query: "from:maya", max: 5 }))) as { error: string };
      expect(result.error).toMatch(said);
      const [logged] = await db.select().from(gmailOperations).where(eq(gmailOperations.userId, userId));
      expect(logged).toMatchObject({ operation: "search_emails", mailbox: "gmail", status: "failed" });
      expect(logged?.error?.startsWith(`${code}:`)).toBe(true);
      server.resetHandlers();
    }
  });

  it("another user's tokens are never used: without their own Google account a user gets the demo mailbox", async () => {
    await linkedUser("dee", { access: "token-dee", refresh: "refresh-dee", expiresIn: 3600 });
    const stranger = await createUser(db, "Eve");
    server.use(...gmailAccepting("token-dee"));
    const mailbox = await mailboxForUser(db, stranger, options);
    expect(mailbox.kind).toBe("demo");
    await mailbox.search("from:maya", 5);
    expect(requests).toEqual([]);
    await expect(mailboxOfKind(db, stranger, "gmail", options)).rejects.toMatchObject({ code: "not_connected" });
  });

  it("without Google configured, even a linked user gets the demo mailbox", async () => {
    const userId = await linkedUser("fay", { access: "token-fay", refresh: "refresh-fay", expiresIn: 3600 });
    expect((await mailboxForUser(db, userId, { google: null, now: () => NOW })).kind).toBe("demo");
  });
});
