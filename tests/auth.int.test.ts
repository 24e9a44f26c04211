/** Sign-up, sign-in, sign-out and account changes over real HTTP, through the real Auth.js handlers. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, registerAndSignIn } from "./http-client";
import { startTestServer, type TestServer } from "./http-server";
import { useTestDatabase } from "./test-database";

process.env.AUTH_SECRET = "auth-flow-test-secret-0123456789";

describe("auth over HTTP (PGlite)", () => {
  const database = useTestDatabase("pglite");
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("email + password", () => {
    it("register → sign in → session exposes user.id → sign out", async () => {
      const user = await registerAndSignIn(server.url, "flow");
      const session = await user.client.request("GET", "/api/auth/session");
      expect(session.json).toMatchObject({ user: { id: user.id, email: user.email, name: user.name } });
      expect((await user.client.request("GET", "/api/account")).status).toBe(200);

      await user.client.signOut();
      expect(user.client.hasSession()).toBe(false);
      expect((await user.client.request("GET", "/api/account")).status).toBe(401);
      expect((await user.client.request("GET", "/api/auth/session")).json).toBeNull();
    });

    it("signs in with the email in any case and surrounding spaces", async () => {
      const user = await registerAndSignIn(server.url, "case");
      const client = new HttpClient(server.url);
      expect((await client.signIn(`  ${user.email.toUpperCase()} `, user.password)).ok).toBe(true);
    });

    it("a wrong password and an unknown email fail the same way, without a session", async () => {
      const user = await registerAndSignIn(server.url, "wrong");
      const wrong = new HttpClient(server.url);
      const a = await wrong.signIn(user.email, "not-the-password");
      const unknown = new HttpClient(server.url);
      const b = await unknown.signIn("nobody-here@example.com", "whatever-password");
      for (const [client, result] of [
        [wrong, a],
        [unknown, b],
      ] as const) {
        expect(result.ok).toBe(false);
        expect(new URL(result.location).pathname).toBe("/login");
        expect(new URL(result.location).searchParams.get("error")).toBe("CredentialsSignin");
        expect(client.hasSession()).toBe(false);
      }
    });

    it("registering an existing email (any case) is 409 conflict:email", async () => {
      const user = await registerAndSignIn(server.url, "dup");
      const res = await new HttpClient(server.url).request("POST", "/api/auth/register", {
        json: { email: user.email.toUpperCase(), password: "another-password", name: "Dup" },
      });
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({ error: { code: "conflict:email", message: expect.any(String) } });
    });
  });

  describe("account", () => {
    it("changes the password only with the current one; the new one signs in, the old one no longer does", async () => {
      const user = await registerAndSignIn(server.url, "pw");
      const wrong = await user.client.request("POST", "/api/account/password", {
        json: { currentPassword: "nope-nope-nope", newPassword: "brand-new-password" },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.json).toMatchObject({
        error: { code: "bad_request", fields: { "body.currentPassword": "Current password is incorrect" } },
      });

      const ok = await user.client.request("POST", "/api/account/password", {
        json: { currentPassword: user.password, newPassword: "brand-new-password" },
      });
      expect(ok.status).toBe(204);
      expect((await new HttpClient(server.url).signIn(user.email, user.password)).ok).toBe(false);
      expect((await new HttpClient(server.url).signIn(user.email, "brand-new-password")).ok).toBe(true);
    });

    it("updates name, email and the memory default; the new email signs in; a taken email is 409", async () => {
      const user = await registerAndSignIn(server.url, "profile");
      const other = await registerAndSignIn(server.url, "taken");
      const newEmail = `Renamed-${Date.now()}@Example.com`;
      const res = await user.client.request("PATCH", "/api/account", {
        json: { name: "Renamed", email: newEmail, memoryEnabledDefault: false, currentPassword: user.password },
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        account: { name: "Renamed", email: newEmail.toLowerCase(), memoryEnabledDefault: false, providers: [] },
      });
      expect((await user.client.request("GET", "/api/account")).json).toMatchObject({ account: { name: "Renamed" } });
      expect((await new HttpClient(server.url).signIn(newEmail, user.password)).ok).toBe(true);

      const taken = await user.client.request("PATCH", "/api/account", {
        json: { email: other.email, currentPassword: user.password },
      });
      expect(taken.status).toBe(409);
      expect(taken.json).toMatchObject({ error: { code: "conflict:email" } });
    });

    it("stores an IANA time zone; anything else is a 400 naming body.timeZone and changes nothing", async () => {
      const user = await registerAndSignIn(server.url, "time-zone");
      const fresh = await user.client.request("GET", "/api/account");
      expect(fresh.json).toMatchObject({ account: { timeZone: null } });
      const set = await user.client.request("PATCH", "/api/account", { json: { timeZone: "Pacific/Auckland" } });
      expect(set.status).toBe(200);
      expect(set.json).toMatchObject({ account: { timeZone: "Pacific/Auckland" } });
      const bad = await user.client.request("PATCH", "/api/account", { json: { timeZone: "Mars/Olympus" } });
      expect(bad.status).toBe(400);
      expect(Object.keys((bad.json as { error: { fields: object } }).error.fields)).toEqual(["body.timeZone"]);
      expect((await user.client.request("GET", "/api/account")).json).toMatchObject({
        account: { timeZone: "Pacific/Auckland" },
      });
    });

    it("a session whose user was deleted is 401 on account routes", async () => {
      const user = await registerAndSignIn(server.url, "deleted");
      await database.query("DELETE FROM users WHERE id = $1", [user.id]);
      const res = await user.client.request("GET", "/api/account");
      expect(res.status).toBe(401);
    });
  });
});
