/**
 * Lifeline's Gmail mailbox against the Gmail contract fake (tests/contracts/gmail-fake.ts), with
 * the tokens in the accounts table, on both databases. Each case is a defect once found:
 * replies that thread, messages that follow RFC 2047/5322, mail in other charsets read back
 * correctly, Gmail's error reasons mapped to the right advice, one token refresh at a time, a
 * revoked grant disconnecting the account, and gmail.modify alone covering every call.
 */
import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { accounts } from "@/db/schema";
import { approvePendingSend } from "@/lib/agent/approval";
import { gmailConnection, hasGmailAccess, mailboxForUser, mailboxOfKind } from "@/lib/agent/mailbox";
import { createRefreshFlights } from "@/lib/agent/mailbox/gmail";
import type { Mailbox } from "@/lib/agent/mailbox/types";
import { createMailTools } from "@/lib/agent/tools";
import { GOOGLE_SCOPES } from "@/lib/auth/google";
import { DB_KINDS } from "@/tests/db";
import { createUser } from "@/tests/fixtures/memories";
import { useTestDatabase } from "@/tests/test-database";
import { GmailFake, gmailError, SCOPES } from "./gmail-fake";

const NOW = new Date("2026-11-30T12:00:00.000Z");
const google = { clientId: "client-id", clientSecret: "client-secret" };
const server = setupServer();
let fake: GmailFake;
let slept: number[] = [];
const sleep = async (ms: number) => {
  slept.push(ms);
};

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  fake = new GmailFake();
  slept = [];
  server.use(...fake.handlers());
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Maya's email as her mail client wrote it: a thread of its own, with a Message-ID. */
const MAYA = [
  "From: Maya Chen <maya@example.com>",
  "To: Ada Lovelace <ada@example.com>",
  "Subject: Dinner on Friday?",
  "Date: Sun, 29 Nov 2026 18:00:00 +0000",
  "Message-ID: <maya-1@mail.example.com>",
  "MIME-Version: 1.0",
  "Content-Type: text/plain; charset=utf-8",
  "",
  "Are you free for dinner on Friday?",
].join("\r\n");

/** A French colleague's mail client writing ISO-8859-1, quoted-printable, with an encoded subject. */
const RENE_LATIN1 = [
  "From: =?ISO-8859-1?Q?Ren=E9_Dupont?= <rene@example.fr>",
  "To: ada@example.com",
  "Subject: =?ISO-8859-1?Q?Caf=E9_=E0_10h?=",
  "Date: Mon, 30 Nov 2026 09:00:00 +0100",
  "Message-ID: <rene-1@example.fr>",
  "MIME-Version: 1.0",
  "Content-Type: text/plain; charset=ISO-8859-1",
  "Content-Transfer-Encoding: quoted-printable",
  "",
  "Un caf=E9 chez Ren=E9 =E0 10h ? =C0 bient=F4t.",
].join("\r\n");

/** A reply to René the user began in Gmail's web client: a draft in ISO-8859-1, quoted-printable. */
const LATIN1_DRAFT = [
  "From: ada@example.com",
  "To: =?ISO-8859-1?Q?Ren=E9_Dupont?= <rene@example.fr>",
  "Subject: =?ISO-8859-1?Q?Caf=E9_=E0_10h?=",
  "MIME-Version: 1.0",
  "Content-Type: text/plain; charset=ISO-8859-1",
  "Content-Transfer-Encoding: quoted-printable",
  "",
  "Un caf=E9 chez Ren=E9 =E0 10h ? =C0 bient=F4t.",
].join("\r\n");

/** An HTML-only message in windows-1252, base64. */
const HTML_ONLY = [
  "From: Newsletter <news@example.com>",
  "To: ada@example.com",
  "Subject: Ticket 12",
  "Message-ID: <news-12@example.com>",
  "MIME-Version: 1.0",
  "Content-Type: text/html; charset=windows-1252",
  "Content-Transfer-Encoding: base64",
  "",
  Buffer.from("<html><body><p>Na\xefve caf\xe9 &amp; cr\xe8me \x96 ticket 12</p></body></html>", "latin1").toString(
    "base64",
  ),
].join("\r\n");

describe.each(DB_KINDS)("Gmail's contract on %s", (kind) => {
  const database = useTestDatabase(kind);

  let counter = 0;
  /** A user whose Google account granted `scopes`, with a live access token and a refresh token. */
  async function linkedUser(scopes: string[] = [SCOPES.modify], init: { expiresIn?: number } = {}) {
    counter += 1;
    const userId = await createUser(database.db, `User ${counter}`);
    const access = `token-${kind}-${counter}`;
    const refresh = `refresh-${kind}-${counter}`;
    fake.grant(access, scopes);
    fake.grantRefresh(refresh, scopes);
    await database.db.insert(accounts).values({
      userId,
      type: "oidc",
      provider: "google",
      providerAccountId: `google-${kind}-${counter}`,
      access_token: access,
      refresh_token: refresh,
      expires_at: Math.floor(NOW.getTime() / 1000) + (init.expiresIn ?? 3600),
      scope: ["openid", "email", ...scopes].join(" "),
      token_type: "bearer",
    });
    return { userId, access, refresh };
  }

  const options = (extra: object = {}) => ({ google, now: () => NOW, sleep, ...extra });

  function tools(mailbox: Mailbox, userId: string) {
    const list = createMailTools({
      db: database.db,
      mailbox,
      context: { userId, conversationId: null, messageId: null },
    });
    return async (name: string, args: Record<string, unknown>) => {
      const found = list.find((t) => t.name === name);
      if (!found) throw new Error(`no tool ${name}`);
      return JSON.parse(String(await found.invoke(args))) as Record<string, unknown>;
    };
  }

  describe("threading (items 7–8)", () => {
    it("read_email gives the thread id and Message-ID; a reply the user approves joins Maya's thread, RFC-clean", async () => {
      const { userId } = await linkedUser();
      const maya = await fake.deliver(MAYA);
      const mailbox = await mailboxForUser(database.db, userId, options());
      const call = tools(mailbox, userId);

      const read = await call("read_email", { id: maya.id });
      expect(read).toMatchObject({ threadId: maya.threadId, messageId: "<maya-1@mail.example.com>" });

      const prepared = (await call("send_email", {
        to: ["Maya Chen <maya@example.com>"],
        subject: "Re: Dinner",
        body: "Friday works!",
        reply_to_id: maya.id,
      })) as { operationId: string; draft: never };
      await approvePendingSend(database.db, {
        userId,
        operationId: prepared.operationId,
        shown: prepared.draft,
        mailboxFor: (k) => mailboxOfKind(database.db, userId, k, options()),
      });

      const [sent] = fake.received;
      expect(sent?.method).toBe("messages.send");
      expect(sent?.violations).toEqual([]);
      expect(sent?.requestedThreadId).toBe(maya.threadId);
      expect(sent?.threadMisses).toEqual([]);
      expect(sent?.threadId).toBe(maya.threadId);
      expect(sent?.parsed.inReplyTo).toBe("<maya-1@mail.example.com>");
      expect(sent?.parsed.references).toBe("<maya-1@mail.example.com>");
      // The subject the model wrote ("Re: Dinner") would have left the thread: the reply keeps Maya's.
      expect(sent?.parsed.subject).toBe("Re: Dinner on Friday?");
      expect(sent?.parsed.text?.trim()).toBe("Friday works!");
    });

    it("a draft reply to a reply carries the whole References chain and joins the thread", async () => {
      const { userId } = await linkedUser();
      const first = await fake.deliver(MAYA);
      const second = await fake.deliver(
        [
          "From: Maya Chen <maya@example.com>",
          "To: ada@example.com",
          "Subject: Re: Dinner on Friday?",
          "Message-ID: <maya-2@mail.example.com>",
          "In-Reply-To: <ada-1@mail.example.com>",
          "References: <maya-1@mail.example.com> <ada-1@mail.example.com>",
          "",
          "Great, 7:30 then.",
        ].join("\r\n"),
        { threadId: first.threadId },
      );
      const mailbox = await mailboxForUser(database.db, userId, options());
      const result = await tools(mailbox, userId)("create_draft", {
        to: ["maya@example.com"],
        subject: "Re: Dinner on Friday?",
        body: "See you there.",
        reply_to_id: second.id,
      });
      expect(result).not.toHaveProperty("error");
      const [draft] = fake.received;
      expect(draft?.method).toBe("drafts.create");
      expect(draft?.violations).toEqual([]);
      expect(draft?.threadMisses).toEqual([]);
      expect(draft?.threadId).toBe(first.threadId);
      expect(draft?.parsed.references).toEqual([
        "<maya-1@mail.example.com>",
        "<ada-1@mail.example.com>",
        "<maya-2@mail.example.com>",
      ]);
    });

    it("a long non-ASCII subject is folded encoded words, display names are encoded and quoted, long lines are wrapped", async () => {
      const { userId } = await linkedUser();
      const mailbox = await mailboxForUser(database.db, userId, options());
      const subject =
        "Réunion de l’équipe à Zürich : ordre du jour, café, croissants et la salle « Élysée » — merci de confirmer avant jeudi, s’il vous plaît ! ".repeat(
          3,
        );
      const longLine = "word ".repeat(300).trim();
      await mailbox.send({
        to: ["Dupont, René <rene@example.fr>", "Zoë Åberg <zoe@example.se>"],
        cc: ["李小龙 <li@example.cn>"],
        bcc: ["audit@example.com"],
        subject: subject.trim(),
        body: `Bonjour René,\n\n${longLine}\n\nÀ bientôt`,
      });
      const [sent] = fake.received;
      expect(sent?.violations).toEqual([]);
      expect(sent?.parsed.subject).toBe(subject.trim());
      const to = sent?.parsed.to && !Array.isArray(sent.parsed.to) ? sent.parsed.to.value : [];
      expect(to.map((a) => [a.name, a.address])).toEqual([
        ["Dupont, René", "rene@example.fr"],
        ["Zoë Åberg", "zoe@example.se"],
      ]);
      const cc = sent?.parsed.cc && !Array.isArray(sent.parsed.cc) ? sent.parsed.cc.value : [];
      expect(cc.map((a) => a.name)).toEqual(["李小龙"]);
      // Gmail delivers to Bcc recipients from the raw message's Bcc header.
      const bcc = sent?.parsed.bcc && !Array.isArray(sent.parsed.bcc) ? sent.parsed.bcc.value : [];
      expect(bcc.map((a) => a.address)).toEqual(["audit@example.com"]);
      expect(sent?.parsed.text?.replace(/\r\n/g, "\n").trim()).toBe(`Bonjour René,\n\n${longLine}\n\nÀ bientôt`);
    });

    it("a model-written subject or address cannot add header lines", async () => {
      const { userId } = await linkedUser();
      const mailbox = await mailboxForUser(database.db, userId, options());
      await mailbox.send({
        to: ["tom@example.com"],
        cc: [],
        bcc: [],
        subject: "Hello\r\nBcc: attacker@example.com",
        body: "ok",
      });
      const [sent] = fake.received;
      expect(sent?.parsed.bcc).toBeUndefined();
      expect(sent?.violations).toEqual([]);
    });
  });

  describe("reading other charsets (item 9)", () => {
    it("an ISO-8859-1 quoted-printable message reads back correctly: body, subject and sender", async () => {
      const { userId } = await linkedUser();
      const rene = await fake.deliver(RENE_LATIN1);
      const mailbox = await mailboxForUser(database.db, userId, options());
      const email = await mailbox.read(rene.id);
      expect(email.body.trim()).toBe("Un café chez René à 10h ? À bientôt.");
      expect(email.subject).toBe("Café à 10h");
      expect(email.from).toBe("René Dupont <rene@example.fr>");
      const [found] = await mailbox.search("from:rene", 5);
      expect(found).toMatchObject({ id: rene.id, subject: "Café à 10h", from: "René Dupont <rene@example.fr>" });
    });

    it("an HTML-only windows-1252 message reads as text", async () => {
      const { userId } = await linkedUser();
      const news = await fake.deliver(HTML_ONLY);
      const email = await (await mailboxForUser(database.db, userId, options())).read(news.id);
      expect(email.body.trim()).toBe("Naïve café & crème – ticket 12");
    });
  });

  describe("Gmail's error reasons (item 10)", () => {
    it.each([
      ["rateLimitExceeded", 403],
      ["userRateLimitExceeded", 403],
      ["tooManyRequests", 429],
    ] as const)("%s (%i) is retried with exponential backoff, then succeeds", async (reason, _status) => {
      const { userId } = await linkedUser();
      await fake.deliver(MAYA);
      fake.failNext("messages.list", () => gmailError(reason), 2);
      const found = await (await mailboxForUser(database.db, userId, options())).search("from:maya", 5);
      expect(found).toHaveLength(1);
      expect(slept).toHaveLength(2);
      expect(slept[1]).toBeGreaterThan(slept[0] ?? Number.POSITIVE_INFINITY);
    });

    it("a Retry-After is honoured", async () => {
      const { userId } = await linkedUser();
      fake.failNext("labels.list", () => gmailError("tooManyRequests", { retryAfterSeconds: 7 }));
      await (await mailboxForUser(database.db, userId, options())).listLabels();
      expect(slept).toEqual([7000]);
    });

    it.each([
      ["rateLimitExceeded", /rate limit/i, /reconnect/i],
      ["userRateLimitExceeded", /rate limit/i, /reconnect/i],
      ["accessNotConfigured", /Gmail API is not enabled.*(operator|administrator)/i, /reconnect/i],
      ["insufficientPermissions", /reconnect.*gmail\.modify|gmail\.modify.*reconnect/i, /rate/i],
      ["dailyLimitExceeded", /daily/i, /reconnect/i],
    ] as const)("%s tells the user what to do", async (reason, says, never) => {
      const { userId } = await linkedUser();
      fake.failNext("messages.list", () => gmailError(reason), 10);
      const mailbox = await mailboxForUser(database.db, userId, options());
      const result = await tools(mailbox, userId)("search_emails", { query: "from:maya", max: 5 });
      expect(String(result.error)).toMatch(says);
      expect(String(result.error)).not.toMatch(never);
    });

    it("a label name resolves to its id; an unknown one names the labels that exist and reaches no modify", async () => {
      const { userId } = await linkedUser();
      const travel = fake.addLabel("Travel");
      const maya = await fake.deliver(MAYA);
      const mailbox = await mailboxForUser(database.db, userId, options());
      const call = tools(mailbox, userId);
      expect(await call("modify_labels", { id: maya.id, add: ["travel"], remove: ["unread"] })).toMatchObject({
        labels: ["INBOX", travel.id],
      });
      const unknown = await call("modify_labels", { id: maya.id, add: ["Receipts"] });
      expect(String(unknown.error)).toMatch(/no label .Receipts./i);
      expect(String(unknown.error)).toMatch(/Travel/);
      expect(fake.requests.filter((r) => r.method === "messages.modify")).toHaveLength(1);
    });
  });

  describe("tokens (item 11)", () => {
    it("five parallel reads that meet a 401 refresh once", async () => {
      const { userId, access } = await linkedUser();
      const ids = await Promise.all(Array.from({ length: 5 }, () => fake.deliver(MAYA)));
      fake.expire(access);
      const mailbox = await mailboxForUser(database.db, userId, options());
      const emails = await Promise.all(ids.map((m) => mailbox.read(m.id)));
      expect(emails).toHaveLength(5);
      expect(fake.refreshes).toHaveLength(1);
    });

    it("two server instances with an expired token refresh once: the second uses the token the first stored", async () => {
      const { userId } = await linkedUser([SCOPES.modify], { expiresIn: -60 });
      await fake.deliver(MAYA);
      const [a, b] = await Promise.all([
        mailboxForUser(database.db, userId, options({ refreshFlights: createRefreshFlights() })),
        mailboxForUser(database.db, userId, options({ refreshFlights: createRefreshFlights() })),
      ]);
      const [x, y] = await Promise.all([a.search("from:maya", 5), b.search("from:maya", 5)]);
      expect([x.length, y.length]).toEqual([1, 1]);
      expect(fake.refreshes).toHaveLength(1);
    });

    it("a revoked grant (invalid_grant) clears the tokens, disconnects the account and says so", async () => {
      const { userId, refresh } = await linkedUser();
      fake.revoke(refresh);
      const mailbox = await mailboxForUser(database.db, userId, options());
      const result = await tools(mailbox, userId)("search_emails", { query: "from:maya", max: 5 });
      expect(String(result.error)).toMatch(/revoked.*reconnect/i);
      // The same turn's next call says the same, without asking Google again.
      const again = await tools(mailbox, userId)("list_labels", {});
      expect(String(again.error)).toMatch(/revoked.*reconnect/i);
      const [row] = await database.db.select().from(accounts).where(eq(accounts.userId, userId));
      expect(row).toMatchObject({ access_token: null, refresh_token: null });
      expect(await hasGmailAccess(database.db, userId)).toBe(false);
      expect(await gmailConnection(database.db, userId)).toMatchObject({ state: "revoked" });
      // The next turn does not try the dead tokens again; a Gmail send approved now says why it cannot go.
      expect((await mailboxForUser(database.db, userId, options())).kind).toBe("demo");
      await expect(mailboxOfKind(database.db, userId, "gmail", options())).rejects.toMatchObject({
        code: "revoked",
        userMessage: expect.stringMatching(/revoked.*reconnect/i),
      });
      expect(fake.refreshes).toHaveLength(1);
    });
  });

  describe("drafts", () => {
    it("a saved draft is listed by its draft id and opened with its body; one saved in Gmail in Latin-1 reads back", async () => {
      const { userId } = await linkedUser();
      const mailbox = await mailboxForUser(database.db, userId, options());
      const call = tools(mailbox, userId);
      const created = (await call("create_draft", {
        to: ["Maya Chen <maya@example.com>"],
        subject: "Friday",
        body: "See you at 8.\nI'll bring dessert.",
      })) as { draftId: string };
      const latin1 = await fake.saveDraft(LATIN1_DRAFT, { date: new Date("2026-11-01T09:00:00Z") });

      const listed = (await call("list_drafts", { max: 10 })) as unknown as {
        id: string;
        to: string[];
        subject: string;
      }[];
      // Newest first, by the draft's own id (not its message's): what read_draft takes.
      expect(listed.map((d) => d.id)).toEqual([created.draftId, latin1]);
      expect(listed[0]).toMatchObject({ to: ["Maya Chen <maya@example.com>"], subject: "Friday" });
      expect(listed[1]).toMatchObject({ to: ["René Dupont <rene@example.fr>"], subject: "Café à 10h" });

      expect(await call("read_draft", { id: created.draftId })).toMatchObject({
        id: created.draftId,
        to: ["Maya Chen <maya@example.com>"],
        subject: "Friday",
        body: "See you at 8.\nI'll bring dessert.",
      });
      expect(await call("read_draft", { id: latin1 })).toMatchObject({
        subject: "Café à 10h",
        body: "Un café chez René à 10h ? À bientôt.",
      });
      // What Lifeline asked Gmail: the list, each draft's metadata, then each opened draft as raw.
      const drafts = fake.requests.filter((r) => r.method.startsWith("drafts.") && r.method !== "drafts.create");
      expect(drafts.map((r) => `${r.method} ${new URL(r.url).searchParams.get("format") ?? ""}`.trim())).toEqual([
        "drafts.list",
        "drafts.get metadata",
        "drafts.get metadata",
        "drafts.get raw",
        "drafts.get raw",
      ]);
    });

    it("an unknown draft id, or an email's id given as a draft's, is not found", async () => {
      const { userId } = await linkedUser();
      const maya = await fake.deliver(MAYA);
      const call = tools(await mailboxForUser(database.db, userId, options()), userId);
      for (const id of ["r-nope", maya.id])
        expect(await call("read_draft", { id }), id).toEqual({
          error: "That email or draft was not found in the mailbox.",
        });
      expect(await call("list_drafts", { max: 10 })).toEqual([]);
    });

    it("the fake refuses what Gmail refuses on drafts: a parameter drafts.get does not define, an unknown format, the metadata scope", async () => {
      fake.grant("t-modify", [SCOPES.modify]);
      fake.grant("t-metadata", [SCOPES.metadata]);
      const draftId = await fake.saveDraft(MAYA);
      const get = (query: string, token = "t-modify") =>
        fetch(`https://gmail.googleapis.com/gmail/v1/users/me/drafts/${draftId}?${query}`, {
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await get("format=metadata")).status).toBe(200);
      const unbound = await get("format=metadata&metadataHeaders=To");
      expect(unbound.status).toBe(400);
      const body = (await unbound.json()) as { error: { message: string } };
      expect(body.error.message).toContain('Unknown name "metadataHeaders"');
      expect((await get("format=html")).status).toBe(400);
      expect((await get("format=metadata", "t-metadata")).status).toBe(403);
      const list = await fetch("https://gmail.googleapis.com/gmail/v1/users/me/drafts?labelIds=DRAFT", {
        headers: { authorization: "Bearer t-modify" },
      });
      expect(list.status).toBe(400);
    });
  });

  describe("scopes (item 12)", () => {
    it("Lifeline asks for gmail.modify and nothing narrower beside it", () => {
      expect([...GOOGLE_SCOPES].sort()).toEqual(["email", "openid", "profile", SCOPES.modify].sort());
    });

    it("a token granted only gmail.modify serves every call Lifeline makes", async () => {
      const { userId } = await linkedUser([SCOPES.modify]);
      const maya = await fake.deliver(MAYA);
      fake.addLabel("Travel");
      const mailbox = await mailboxForUser(database.db, userId, options());
      const call = tools(mailbox, userId);
      for (const [name, args] of [
        ["search_emails", { query: "from:maya", max: 5 }],
        ["read_email", { id: maya.id }],
        ["list_labels", {}],
        ["modify_labels", { id: maya.id, add: ["Travel"] }],
        ["create_draft", { to: ["maya@example.com"], subject: "Hi", body: "Draft" }],
        ["list_drafts", { max: 5 }],
      ] as const)
        expect(await call(name, args), name).not.toHaveProperty("error");
      const [saved] = fake.drafts.keys();
      expect(await call("read_draft", { id: saved ?? "" })).toMatchObject({ body: "Draft" });
      await mailbox.send({ to: ["maya@example.com"], cc: [], bcc: [], subject: "Hi", body: "Sent" });
      expect(fake.received.map((m) => m.method)).toEqual(["drafts.create", "messages.send"]);
    });

    it("a user who unticked gmail.modify in Google's consent is not connected for the agent", async () => {
      const { userId } = await linkedUser([SCOPES.readonly, SCOPES.send]);
      expect(await hasGmailAccess(database.db, userId)).toBe(false);
      expect((await mailboxForUser(database.db, userId, options())).kind).toBe("demo");
      expect(await gmailConnection(database.db, userId)).toMatchObject({ state: "missing_scope" });
    });
  });
});
