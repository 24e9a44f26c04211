import { describe, expect, it } from "vitest";
import type { ProviderAccount } from "@/db/queries/accounts";
import { connectionOf, gmailConnectionView } from "./connection";

const account = (fields: Partial<ProviderAccount>): ProviderAccount => ({
  userId: "u",
  type: "oidc",
  provider: "google",
  providerAccountId: "g",
  refresh_token: "rt",
  access_token: "at",
  expires_at: null,
  token_type: "bearer",
  scope: "openid email https://www.googleapis.com/auth/gmail.modify",
  id_token: null,
  session_state: null,
  tokensRevokedAt: null,
  ...fields,
});

describe("connectionOf: the granted scopes decide, not the requested ones", () => {
  it("gmail.modify (or the full mail scope) granted, with tokens: connected", () => {
    expect(connectionOf(account({})).state).toBe("connected");
    expect(connectionOf(account({ scope: "openid https://mail.google.com/" })).state).toBe("connected");
  });

  it("modify unticked on Google's consent screen (readonly and send only): not connected", () => {
    const scope = "openid https://www.googleapis.com/auth/gmail.readonly https://www.googleapis.com/auth/gmail.send";
    expect(connectionOf(account({ scope })).state).toBe("missing_scope");
    expect(connectionOf(account({ access_token: null, refresh_token: null })).state).toBe("missing_scope");
  });

  it("revoked by Google, or never linked", () => {
    const at = new Date("2026-11-30T12:00:00Z");
    expect(connectionOf(account({ tokensRevokedAt: at, access_token: null, refresh_token: null }))).toEqual({
      state: "revoked",
      revokedAt: at,
    });
    expect(connectionOf(null).state).toBe("not_linked");
  });
});

describe("gmailConnectionView: what Settings says", () => {
  const when = (moment: Date) => `<${moment.toISOString()}>`;

  it("revoked: says so, with when, and offers to reconnect", () => {
    const view = gmailConnectionView(true, { state: "revoked", revokedAt: new Date("2026-11-30T12:00:00Z") }, when);
    expect(view.status.label).toBe("Disconnected: access revoked");
    // When, as the user's locale and time zone show it (the page's formatter), not the server's.
    expect(view.problem).toContain("on <2026-11-30T12:00:00.000Z>");
    expect(view.action).toBe("Reconnect Google (Gmail)");
  });

  it("missing scope: names gmail.modify and offers to reconnect; connected and unconfigured offer nothing", () => {
    const missing = gmailConnectionView(true, { state: "missing_scope", revokedAt: null }, when);
    expect(missing.problem).toContain("gmail.modify");
    expect(missing.action).toBe("Reconnect Google (Gmail)");
    expect(gmailConnectionView(true, { state: "connected", revokedAt: null }, when)).toMatchObject({
      problem: null,
      action: null,
    });
    expect(gmailConnectionView(false, { state: "connected", revokedAt: null }, when).status.label).toBe(
      "Not available",
    );
    expect(gmailConnectionView(true, { state: "not_linked", revokedAt: null }, when).action).toBe(
      "Connect Google (Gmail)",
    );
  });
});
