/**
 * The Gmail mailbox against the Gmail contract fake (tests/contracts/gmail-fake.ts: the googleapis
 * client's real HTTP requests, intercepted by msw), with tokens in the accounts table on both
 * databases: search → read with the user's token, token refresh written back, Gmail's failures as
 * clear messages and failed operations in the log, and one user never reaching another's tokens.
 * Gmail's documented contract itself (threading, RFC 2047/5322, charsets, error reasons, scopes) is
 * tests/contracts/gmail.int.test.ts.
 */
import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { accounts, gmailOperations } from "@/db/schema";
import { type GmailErrorKind, GmailFake, gmailError, SCOPES } from "@/tests/contracts/gmail-fake";
import { DB_KINDS } from "@/tests/db";
import { createUser } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { createMailTools } from "../tools";
import { mailboxForUser, mailboxOfKind } from "./index";

const NOW = new Date("2026-11-30T12:00:00.000Z");
const google = { clientId: "client-id", clientSecret: "client-secret" };
const SCOPE = `openid email ${SCOPES.modify}`;
const noWait = async () => {};
const options = { google, now: () => NOW, sleep: noWait };

const server = setupServer();
let fake: GmailFake;
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  fake = new GmailFake();
  server.use(...fake.handlers());
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const MAYA = [
  "From: Maya Chen <maya@example.com>",
  "To: ada@example.com",
  "Subject: Dinner on Friday?",
  "Message-ID: <maya-1@mail.example.com>",
  "Content-Type: multipart/alternative; boundary=b1",
  "",
  "--b1",
  "Content-Type: text/plain; charset=utf-8",
  "",
  "Are you free for dinner on Friday?",
  "--b1",
  "Content-Type: text/html; charset=utf-8",
  "",
  "<p>Are you free for <b>dinner</b> on Friday?</p>",
  "--b1--",
].join("\r\n");

describe.each(DB_KINDS)("the Gmail mailbox on %s (msw)", (kind) => {
  const database = useTestDatabase(kind);

  async function linkedUser(name: string, tokens: { access: string; refresh: string | null; expiresIn: number }) {
    const userId = await createUser(database.db, name);
    fake.grant(tokens.access, [SCOPES.modify]);
    if (tokens.refresh) fake.grantRefresh(tokens.refresh, [SCOPES.modify]);
    await database.db.insert(accounts).values({
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

  it("search then read, with the user's access token; the text/plain part is the body", async () => {
    const userId = await linkedUser("ada", { access: "token-ada", refresh: "refresh-ada", expiresIn: 3600 });
    const maya = await fake.deliver(MAYA);
    const mailbox = await mailboxForUser(database.db, userId, options);
    expect(mailbox.kind).toBe("gmail");
    const [found] = await mailbox.search("from:maya", 5);
    expect(found).toMatchObject({
      id: maya.id,
      from: "Maya Chen <maya@example.com>",
      subject: "Dinner on Friday?",
      unread: true,
    });
    const email = await mailbox.read(maya.id);
    expect(email.body).toBe("Are you free for dinner on Friday?");
    expect(fake.requests.every((r) => r.token === "token-ada")).toBe(true);
    expect(new URL(fake.requests[0]?.url ?? "").searchParams.get("q")).toBe("from:maya");
  });

  it("an expired token is refreshed with the refresh token, stored, and used", async () => {
    const userId = await linkedUser("cy", { access: "old-token", refresh: "refresh-cy", expiresIn: -10 });
    await fake.deliver(MAYA);
    const mailbox = await mailboxForUser(database.db, userId, options);
    expect(await mailbox.search("from:maya", 5)).toHaveLength(1);
    expect(fake.refreshes).toHaveLength(1);
    expect(Object.fromEntries(fake.refreshes[0] ?? [])).toEqual({
      client_id: "client-id",
      client_secret: "client-secret",
      refresh_token: "refresh-cy",
      grant_type: "refresh_token",
    });
    const [stored] = await database.db.select().from(accounts).where(eq(accounts.userId, userId));
    expect(stored?.access_token).toMatch(/^access-/);
    expect(stored?.refresh_token).toBe("refresh-cy");
    expect(fake.requests.every((r) => r.token === stored?.access_token)).toBe(true);
    // Stored as Google answered it: expires_in 3599 s from the refresh (the clock is real here).
    expect((stored?.expires_at ?? 0) * 1000).toBeGreaterThan(Date.now() + 3_500_000);
  });

  it("Gmail's 401 (after one refresh), 403, 429 and 500: a clear message, and a failed operation in the log", async () => {
    const cases: [GmailErrorKind, RegExp, string][] = [
      ["authError", /Reconnect Google/, "unauthorized"],
      ["insufficientPermissions", /lacks the gmail\.modify permission/, "forbidden"],
      ["tooManyRequests", /rate limiting/, "rate_limited"],
      ["backendError", /not reachable/, "unavailable"],
    ];
    for (const [reason, said, code] of cases) {
      fake = new GmailFake();
      server.resetHandlers(...fake.handlers());
      const userId = await linkedUser(`err-${reason}`, { access: `token-${reason}`, refresh: "r", expiresIn: 3600 });
      fake.failNext("messages.list", () => gmailError(reason), 10);
      const mailbox = await mailboxForUser(database.db, userId, options);
      const [search] = createMailTools({
        db: database.db,
        mailbox,
        context: { userId, conversationId: null, messageId: null },
      });
      const result = JSON.parse(String(await search?.invoke({ query: "from:maya", max: 5 }))) as { error: string };
      expect(result.error).toMatch(said);
      const [logged] = await database.db.select().from(gmailOperations).where(eq(gmailOperations.userId, userId));
      expect(logged).toMatchObject({ operation: "search_emails", mailbox: "gmail", status: "failed" });
      expect(logged?.error?.startsWith(`${code}:`)).toBe(true);
    }
  });

  it("another user's tokens are never used: without their own Google account a user gets the demo mailbox", async () => {
    await linkedUser("dee", { access: "token-dee", refresh: "refresh-dee", expiresIn: 3600 });
    const stranger = await createUser(database.db, "Eve");
    const mailbox = await mailboxForUser(database.db, stranger, options);
    expect(mailbox.kind).toBe("demo");
    await mailbox.search("from:maya", 5);
    expect(fake.requests).toEqual([]);
    await expect(mailboxOfKind(database.db, stranger, "gmail", options)).rejects.toMatchObject({
      code: "not_connected",
    });
  });

  it("without Google configured, even a linked user gets the demo mailbox", async () => {
    const userId = await linkedUser("fay", { access: "token-fay", refresh: "refresh-fay", expiresIn: 3600 });
    expect((await mailboxForUser(database.db, userId, { google: null, now: () => NOW })).kind).toBe("demo");
  });
});
