/**
 * Ending sessions, deleting accounts, password rules and rate limits — over real HTTP through the
 * real Auth.js handlers, on PGlite and Postgres (docs/auth.md, docs/security.md).
 */
import "./next-esm";
import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createConversation } from "@/db/queries/conversations";
import { createMessage } from "@/db/queries/messages";
import { createNote } from "@/db/queries/notes";
import { createUser } from "@/db/queries/users";
import { accounts, memories } from "@/db/schema";
import { signInAccountKey } from "@/lib/auth/config";
import { HASH_CONCURRENCY, hashingLoad } from "@/lib/auth/password";
import { resetRateLimiters } from "@/lib/limits/rate-limit";
import { recordAccess } from "@/lib/memory/retrieval/access";
import { DB_KINDS } from "./db";
import { HttpClient, registerAndSignIn } from "./http-client";
import { startTestServer } from "./http-server";
import { ownedSnapshot } from "./security/db-snapshot";
import { useTestServer } from "./test-server";

const SECRET = "auth-hardening-test-secret-0123456789";
process.env.AUTH_SECRET = SECRET;
process.env.AUTH_TRUST_HOST = "true";
process.env.LIFELINE_SIGNIN_IP_RATE_LIMIT = "5/15m";
process.env.LIFELINE_REGISTER_RATE_LIMIT = "3/1h";
process.env.LIFELINE_CHAT_RATE_LIMIT = "2/60s";
const COOKIE = "authjs.session-token";

// Pages read cookies through next/headers and leave through redirect(): both stand-ins here.
const jar = vi.hoisted(() => ({ cookies: new Map<string, string>() }));
vi.mock("next/headers", async (original) => ({
  ...(await original<typeof import("next/headers")>()),
  cookies: async () => ({ getAll: () => [...jar.cookies].map(([name, value]) => ({ name, value })) }),
}));
vi.mock("next/navigation", async (original) => ({
  ...(await original<typeof import("next/navigation")>()),
  redirect: (url: string) => {
    throw new Error(`REDIRECT ${url}`);
  },
}));

/** A client holding a copy of another client's cookies (the "stolen" or "other device" cookie). */
function copyOf(client: HttpClient): HttpClient {
  const copy = new HttpClient(client.baseUrl);
  for (const [k, v] of client.cookies) copy.cookies.set(k, v);
  return copy;
}

/** The page check (lib/auth/server.ts) with this client's cookies. */
async function pageAs(client: HttpClient): Promise<string> {
  const { requireServerSession } = await import("@/lib/auth/server");
  jar.cookies = new Map([...client.cookies].map(([k, v]) => [k, decodeURIComponent(v)]));
  try {
    const user = await requireServerSession("/settings");
    return `user ${user.id}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Runs `fn` behind one trusted proxy that appends the address it saw to X-Forwarded-For
 * (LIFELINE_TRUSTED_PROXY=1, lib/auth/client-address.ts): per-address limits apply only then. The
 * other tests send no such header, so that with a proxy configured they would all share the count
 * of the unparsable address.
 */
async function behindOneProxy(fn: () => Promise<void>): Promise<void> {
  process.env.LIFELINE_TRUSTED_PROXY = "1";
  try {
    await fn();
  } finally {
    delete process.env.LIFELINE_TRUSTED_PROXY;
  }
}

/**
 * Sign-in like the browser's, optionally from a client address: X-Forwarded-For as the one trusted
 * proxy leaves it — a first entry the client forged (a new one each time), then the address the proxy saw.
 */
async function signInFrom(client: HttpClient, email: string, password: string, address?: string) {
  const forged = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
  const headers: Record<string, string> = address ? { "x-forwarded-for": `${forged}, ${address}` } : {};
  const csrf = await client.request("GET", "/api/auth/csrf", { headers });
  const { csrfToken } = csrf.json as { csrfToken: string };
  const res = await client.request("POST", "/api/auth/callback/credentials", {
    form: { email, password, csrfToken, callbackUrl: "/" },
    headers,
  });
  const location = new URL(res.headers.get("location") ?? "", client.baseUrl);
  return {
    ok: res.status === 302 && client.hasSession() && !location.searchParams.has("error"),
    error: location.searchParams.get("error"),
    code: location.searchParams.get("code"),
  };
}

describe.each(DB_KINDS)("on %s", (kind) => {
  const ctx = useTestServer(kind);
  beforeEach(() => resetRateLimiters());

  describe("ending sessions", () => {
    it("after sign-out the old cookie no longer works: API 401, page → login, Auth.js session null", async () => {
      const user = await registerAndSignIn(ctx.server.url, "signout");
      const stolen = copyOf(user.client);
      expect(await pageAs(stolen)).toBe(`user ${user.id}`);
      await user.client.signOut();

      expect((await stolen.request("GET", "/api/account")).status).toBe(401);
      expect(await pageAs(stolen)).toBe("REDIRECT /login?callbackUrl=%2Fsettings");
      expect((await stolen.request("GET", "/api/auth/session")).json).toBeNull();
      // Only that session: another device of the same user stays signed in.
      const other = new HttpClient(ctx.server.url);
      expect((await other.signIn(user.email, user.password)).ok).toBe(true);
      expect((await other.request("GET", "/api/account")).status).toBe(200);
    });

    it("a password change ends every other session; this one carries on with a re-issued cookie", async () => {
      const user = await registerAndSignIn(ctx.server.url, "pwchange");
      const laptop = new HttpClient(ctx.server.url);
      expect((await laptop.signIn(user.email, user.password)).ok).toBe(true);
      const before = copyOf(user.client);

      const res = await user.client.request("POST", "/api/account/password", {
        json: { currentPassword: user.password, newPassword: "a-brand-new-passphrase" },
      });
      expect(res.status).toBe(204);
      expect(res.headers.getSetCookie().join()).toContain(`${COOKIE}=`);

      expect((await user.client.request("GET", "/api/account")).status).toBe(200);
      expect(await pageAs(user.client)).toBe(`user ${user.id}`);
      expect((await laptop.request("GET", "/api/account")).status).toBe(401);
      expect((await before.request("GET", "/api/account")).status).toBe(401);
      expect(await pageAs(laptop)).toMatch(/^REDIRECT \/login/);
      expect((await laptop.request("GET", "/api/auth/session")).json).toBeNull();
    });

    it("sign out everywhere: DELETE /api/account/sessions ends the others, then sign-out ends this one", async () => {
      const user = await registerAndSignIn(ctx.server.url, "everywhere");
      const phone = new HttpClient(ctx.server.url);
      expect((await phone.signIn(user.email, user.password)).ok).toBe(true);
      const mine = copyOf(user.client);

      expect((await user.client.request("DELETE", "/api/account/sessions")).status).toBe(204);
      expect((await phone.request("GET", "/api/account")).status).toBe(401);
      expect((await mine.request("GET", "/api/account")).status).toBe(401);
      expect((await user.client.request("GET", "/api/account")).status).toBe(200);

      const current = copyOf(user.client);
      await user.client.signOut();
      expect((await current.request("GET", "/api/account")).status).toBe(401);
    });
  });

  describe("deleting the account", () => {
    it("needs the current password, removes every row the user owns, and ends every session", async () => {
      const user = await registerAndSignIn(ctx.server.url, "delete");
      const bystander = await registerAndSignIn(ctx.server.url, "bystander");
      const db = ctx.database.db;
      // Something in every kind of table.
      const conversation = await createConversation(db, { userId: user.id, title: "To go" });
      const message = await createMessage(db, {
        userId: user.id,
        conversationId: conversation.id,
        role: "user",
        content: "Hello",
      });
      await createNote(db, { userId: user.id, messageId: message.id, content: "A note" });
      const [memory] = await db
        .insert(memories)
        .values({ userId: user.id, content: "Likes tea", provenance: "user_stated" })
        .returning({ id: memories.id });
      // memory_usage has no user_id of its own: it goes with the memory (checked below).
      await recordAccess(db, { userId: user.id, memoryIds: [memory?.id ?? ""], now: new Date() });
      const usageOf = () =>
        ctx.database.query<{ n: number }>("SELECT count(*)::int AS n FROM memory_usage WHERE memory_id = $1", [
          memory?.id,
        ]);
      expect(await usageOf()).toEqual([{ n: 1 }]);
      await db.insert(accounts).values({
        userId: user.id,
        type: "oidc",
        provider: "google",
        providerAccountId: `g-${randomUUID()}`,
      });
      const otherDevice = new HttpClient(ctx.server.url);
      expect((await otherDevice.signIn(user.email, user.password)).ok).toBe(true);
      const signedOut = new HttpClient(ctx.server.url);
      expect((await signedOut.signIn(user.email, user.password)).ok).toBe(true);
      await signedOut.signOut(); // a revoked_sessions row
      const bystanderBefore = await ownedSnapshot(ctx.database, bystander.id);
      const before = await ownedSnapshot(ctx.database, user.id);
      for (const table of ["users", "conversations", "messages", "message_notes", "memories", "accounts"]) {
        expect(before[table], table).not.toMatch(/^0:/);
      }
      expect(before.revoked_sessions).toMatch(/^1:/);

      const noPassword = await user.client.request("DELETE", "/api/account", { json: {} });
      expect(noPassword.status).toBe(400);
      expect(noPassword.json).toMatchObject({ error: { fields: { "body.currentPassword": expect.any(String) } } });
      const wrong = await user.client.request("DELETE", "/api/account", { json: { currentPassword: "nope-nope-1" } });
      expect(wrong.status).toBe(400);
      expect(await ownedSnapshot(ctx.database, user.id)).toEqual(before);

      const res = await user.client.request("DELETE", "/api/account", { json: { currentPassword: user.password } });
      expect(res.status).toBe(204);
      expect(user.client.hasSession()).toBe(false);

      const after = await ownedSnapshot(ctx.database, user.id);
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
      for (const [table, fingerprint] of Object.entries(after)) expect(fingerprint, table).toBe("0:");
      expect(await usageOf()).toEqual([{ n: 0 }]);
      expect(await ownedSnapshot(ctx.database, bystander.id)).toEqual(bystanderBefore);
      expect((await otherDevice.request("GET", "/api/account")).status).toBe(401);
      expect(await pageAs(otherDevice)).toMatch(/^REDIRECT \/login/);
      expect((await new HttpClient(ctx.server.url).signIn(user.email, user.password)).ok).toBe(false);
    });

    it("a Google-only account needs a sign-in within the last 10 minutes (from the session's authTime)", async () => {
      const db = ctx.database.db;
      const account = await createUser(db, { email: `g-${randomUUID()}@example.com`, name: "G", passwordHash: null });
      const cookie = async (authTime: number) =>
        encode({
          token: { sub: account.id, sid: randomUUID(), sv: 0, authTime },
          secret: SECRET,
          salt: COOKIE,
        });
      const now = Math.floor(Date.now() / 1000);
      const stale = new HttpClient(ctx.server.url);
      stale.cookies.set(COOKIE, await cookie(now - 11 * 60));
      const res = await stale.request("DELETE", "/api/account", { json: {} });
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ error: { code: "forbidden:reauthenticate" } });
      // An email change asks the same.
      const patch = await stale.request("PATCH", "/api/account", { json: { email: `n-${randomUUID()}@example.com` } });
      expect(patch.status).toBe(403);

      const fresh = new HttpClient(ctx.server.url);
      fresh.cookies.set(COOKIE, await cookie(now - 60));
      expect((await fresh.request("DELETE", "/api/account", { json: {} })).status).toBe(204);
      expect(await ownedSnapshot(ctx.database, account.id)).toMatchObject({ users: "0:" });
    });
  });

  describe("email and password rules", () => {
    it("a new email needs the current password; the same email and other fields do not", async () => {
      const user = await registerAndSignIn(ctx.server.url, "email");
      const newEmail = `moved-${randomUUID()}@example.com`;
      const missing = await user.client.request("PATCH", "/api/account", { json: { email: newEmail } });
      expect(missing.status).toBe(400);
      expect(missing.json).toMatchObject({ error: { fields: { "body.currentPassword": expect.any(String) } } });
      const wrong = await user.client.request("PATCH", "/api/account", {
        json: { email: newEmail, currentPassword: "wrong-password-here" },
      });
      expect(wrong.json).toMatchObject({
        error: { fields: { "body.currentPassword": "Current password is incorrect" } },
      });
      const same = await user.client.request("PATCH", "/api/account", { json: { email: user.email, name: "Same" } });
      expect(same.status).toBe(200);
      const ok = await user.client.request("PATCH", "/api/account", {
        json: { email: newEmail, currentPassword: user.password },
      });
      expect(ok.status).toBe(200);
      expect(ok.json).toMatchObject({ account: { email: newEmail } });
    });

    it.each([
      ["a common password", "password123"],
      ["a common password in capitals", "PASSWORD123"],
      ["spaces only", "          "],
      ["tabs and newlines only", "\t\n\t\n\t\n\t\n"],
    ])("refuses %s at registration and at password change, naming the field", async (_label, password) => {
      const client = new HttpClient(ctx.server.url);
      const res = await client.request("POST", "/api/auth/register", {
        json: { email: `weak-${randomUUID()}@example.com`, password, name: "Weak" },
      });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        error: { code: "bad_request", fields: { "body.password": expect.any(String) } },
      });

      const user = await registerAndSignIn(ctx.server.url, "weak");
      const change = await user.client.request("POST", "/api/account/password", {
        json: { currentPassword: user.password, newPassword: password },
      });
      expect(change.status).toBe(400);
      expect(change.json).toMatchObject({ error: { fields: { "body.newPassword": expect.any(String) } } });
    });
  });

  describe("rate limits (counted in the database)", () => {
    it("the 11th attempt on one account within the window is refused, even with the right password", async () => {
      const user = await registerAndSignIn(ctx.server.url, "brute");
      for (let i = 0; i < 10; i++) {
        const attempt = await signInFrom(new HttpClient(ctx.server.url), user.email, `wrong-${i}-password`);
        expect(attempt).toMatchObject({ ok: false, error: "CredentialsSignin", code: "credentials" });
      }
      const right = await signInFrom(new HttpClient(ctx.server.url), user.email, user.password);
      expect(right).toMatchObject({ ok: false, error: "CredentialsSignin", code: "rate_limited" });
      // Any case and spacing of the email is the same account.
      const shouting = await signInFrom(new HttpClient(ctx.server.url), ` ${user.email.toUpperCase()}`, user.password);
      expect(shouting.code).toBe("rate_limited");
    });

    it("a success forgets the account's failed attempts", async () => {
      const user = await registerAndSignIn(ctx.server.url, "forgive");
      for (let i = 0; i < 9; i++) await signInFrom(new HttpClient(ctx.server.url), user.email, "wrong-password-x");
      expect((await signInFrom(new HttpClient(ctx.server.url), user.email, user.password)).ok).toBe(true);
      for (let i = 0; i < 5; i++) await signInFrom(new HttpClient(ctx.server.url), user.email, "wrong-password-y");
      expect((await signInFrom(new HttpClient(ctx.server.url), user.email, user.password)).ok).toBe(true);
    });

    it("two server instances on one database share the count", async () => {
      const user = await registerAndSignIn(ctx.server.url, "shared");
      const second = await startTestServer({ database: ctx.database });
      try {
        for (let i = 0; i < 10; i++) {
          const url = i % 2 === 0 ? ctx.server.url : second.url;
          expect((await signInFrom(new HttpClient(url), user.email, "wrong-password-z")).code).toBe("credentials");
        }
        // A fresh process knows nothing in memory: the count comes from the database.
        resetRateLimiters();
        expect((await signInFrom(new HttpClient(second.url), user.email, user.password)).code).toBe("rate_limited");
        const rows = await ctx.database.query<{ count: number }>("SELECT count FROM rate_limits WHERE key = $1", [
          `signin:${signInAccountKey(user.email)}`,
        ]);
        expect(rows[0]?.count).toBe(11);
      } finally {
        await second.close();
        // close() forgets the process database; the first server keeps using the test database.
        const { setDatabase } = await import("@/db/client");
        setDatabase(ctx.database);
      }
    });

    it("failed sign-ins per client address (X-Forwarded-For, the trusted proxy's entry) are limited across accounts", async () => {
      // Signed up before the proxy is configured: its registration carries no X-Forwarded-For.
      const user = await registerAndSignIn(ctx.server.url, "neighbour");
      await behindOneProxy(async () => {
        const attacker = "203.0.113.7";
        for (let i = 0; i < 5; i++) {
          const attempt = await signInFrom(
            new HttpClient(ctx.server.url),
            `victim-${i}-${randomUUID()}@example.com`,
            "guess-1234",
            attacker,
          );
          expect(attempt.code).toBe("credentials");
        }
        const next = await signInFrom(
          new HttpClient(ctx.server.url),
          `victim-x-${randomUUID()}@example.com`,
          "guess-1234",
          attacker,
        );
        expect(next.code).toBe("rate_limited");
        // Another address is not affected, and neither is a real user from it.
        expect((await signInFrom(new HttpClient(ctx.server.url), user.email, user.password, "198.51.100.20")).ok).toBe(
          true,
        );
      });
    });

    it("registrations per client address: 429 with Retry-After", async () => {
      await behindOneProxy(async () => {
        const register = (address: string) =>
          new HttpClient(ctx.server.url).request("POST", "/api/auth/register", {
            json: { email: `reg-${randomUUID()}@example.com`, password: "a-fine-passphrase", name: "R" },
            headers: { "x-forwarded-for": address },
          });
        for (let i = 0; i < 3; i++) expect((await register("198.51.100.9")).status).toBe(201);
        const limited = await register("198.51.100.9");
        expect(limited.status).toBe(429);
        expect(limited.json).toMatchObject({ error: { code: "rate_limited" } });
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(3000);
        expect((await register("198.51.100.10")).status).toBe(201);
      });
    });

    it("an unparsable client address is counted, never let through: every one shares one count", async () => {
      await behindOneProxy(async () => {
        const register = (forwardedFor: string) =>
          new HttpClient(ctx.server.url).request("POST", "/api/auth/register", {
            json: { email: `reg-${randomUUID()}@example.com`, password: "a-fine-passphrase", name: "R" },
            headers: { "x-forwarded-for": forwardedFor },
          });
        for (const value of ["not-an-ip", "also not one", "999.1.1.1"])
          expect((await register(value)).status).toBe(201);
        const limited = await register("still-not-an-ip");
        expect(limited.status).toBe(429);
        expect(limited.json).toMatchObject({ error: { code: "rate_limited" } });
        expect((await register("198.51.100.11")).status).toBe(201);
      });
    });

    it("the chat limit counts in the database, and 400s do not count", async () => {
      const user = await registerAndSignIn(ctx.server.url, "chat");
      for (let i = 0; i < 3; i++) {
        const bad = await user.client.request("POST", "/api/chat", { json: { message: "not an object" } });
        expect(bad.status).toBe(400);
      }
      // Valid requests for a conversation that does not exist: counted, then 404.
      const chat = () =>
        user.client.request("POST", "/api/chat", {
          json: { conversationId: randomUUID(), message: { text: "Hi" } },
        });
      expect((await chat()).status).toBe(404);
      expect((await chat()).status).toBe(404);
      const limited = await chat();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(55);
      const rows = await ctx.database.query<{ count: number }>("SELECT count FROM rate_limits WHERE key = $1", [
        `chat:${user.id}`,
      ]);
      expect(rows[0]?.count).toBe(3);
    });

    it("parallel sign-in attempts hash at most HASH_CONCURRENCY passwords at once; /api/health still answers", async () => {
      hashingLoad({ resetPeak: true });
      const attempts = Array.from({ length: 3 * HASH_CONCURRENCY + 2 }, (_, i) =>
        signInFrom(new HttpClient(ctx.server.url), `nobody-${i}-${randomUUID()}@example.com`, "some-guess-123"),
      );
      const health = await new HttpClient(ctx.server.url).request("GET", "/api/health");
      const results = await Promise.all(attempts);
      expect(health.status).toBe(200);
      expect(results.every((r) => r.error === "CredentialsSignin")).toBe(true);
      const { peak, active, waiting } = hashingLoad();
      expect(peak).toBeLessThanOrEqual(HASH_CONCURRENCY);
      expect(peak).toBeGreaterThan(0);
      expect({ active, waiting }).toEqual({ active: 0, waiting: 0 });
    });
  });
});
