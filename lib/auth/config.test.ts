import { AdapterError, CredentialsSignin, JWTSessionError, MissingCSRF } from "@auth/core/errors";
import { drizzle } from "drizzle-orm/node-postgres";
import { decode } from "next-auth/jwt";
import { describe, expect, it, vi } from "vitest";
import { logger as appLogger } from "@/core/logger";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { createAuthConfig } from "./config";
import { GMAIL_SCOPES } from "./google";

// A drizzle handle with no connection: the config only keeps it for the adapter and providers.
const db = drizzle.mock({ schema }) as unknown as Db;
const base = { NODE_ENV: "test", AUTH_SECRET: "config-test-secret-0123456789" } as NodeJS.ProcessEnv;

type ProviderLike = { id: string; options?: { authorization?: { params?: Record<string, string> } } };

describe("createAuthConfig", () => {
  it("JWT sessions, our sign-in page, the secret from the environment", () => {
    const config = createAuthConfig(db, base);
    expect(config.session?.strategy).toBe("jwt");
    expect(config.pages).toEqual({ signIn: "/login", error: "/login" });
    expect(config.secret).toBe("config-test-secret-0123456789");
  });

  it("offers only email + password when Google is not configured", () => {
    const ids = createAuthConfig(db, base).providers.map((p) => (p as ProviderLike).id);
    expect(ids).toEqual(["credentials"]);
    const half = createAuthConfig(db, { ...base, AUTH_GOOGLE_ID: "id-only" }).providers;
    expect(half.map((p) => (p as ProviderLike).id)).toEqual(["credentials"]);
  });

  it("adds Google with gmail.modify as the one Gmail scope, offline access and forced consent when configured", () => {
    const config = createAuthConfig(db, { ...base, AUTH_GOOGLE_ID: "gid", AUTH_GOOGLE_SECRET: "gsecret" });
    const google = config.providers.map((p) => p as ProviderLike).find((p) => p.id === "google");
    const params = google?.options?.authorization?.params ?? {};
    expect(params.access_type).toBe("offline");
    expect(params.prompt).toBe("consent");
    const scopes = (params.scope ?? "").split(" ");
    expect(scopes.sort()).toEqual(["email", "https://www.googleapis.com/auth/gmail.modify", "openid", "profile"]);
    expect(GMAIL_SCOPES).toEqual(["https://www.googleapis.com/auth/gmail.modify"]);
  });

  it("lets a Google account in only with an address Google has verified", async () => {
    const { signIn } = createAuthConfig(db, base).callbacks ?? {};
    const google = { provider: "google", type: "oidc", providerAccountId: "1" } as never;
    const user = { id: "u" } as never;
    expect(await signIn?.({ user, account: google, profile: { email_verified: true } as never })).toBe(true);
    expect(await signIn?.({ user, account: google, profile: { email_verified: false } as never })).toBe(false);
    expect(await signIn?.({ user, account: google, profile: {} as never })).toBe(false);
    const credentials = { provider: "credentials", type: "credentials", providerAccountId: "u" } as never;
    expect(await signIn?.({ user, account: credentials })).toBe(true);
  });

  it("puts the user id in the token and exposes it as session.user.id", async () => {
    const { jwt, session } = createAuthConfig(db, base).callbacks ?? {};
    const token = await jwt?.({ token: { sub: "old" }, user: { id: "user-1" } } as never);
    expect(token).toMatchObject({ sub: "user-1" });
    const result = await session?.({ session: { user: { email: "a@b.c" }, expires: "x" }, token } as never);
    expect(result).toMatchObject({ user: { id: "user-1", email: "a@b.c" } });
  });
});

describe("the Auth.js logger", () => {
  const logger = () => {
    const config = createAuthConfig(db, base);
    if (!config.logger?.error) throw new Error("no logger.error");
    return config.logger as Required<NonNullable<typeof config.logger>>;
  };

  it("a forged or tampered session cookie (JWTSessionError) is one warn line without a stack", async () => {
    // What Auth.js' session action logs when the cookie does not decrypt: jose's error, wrapped.
    let caught: unknown;
    try {
      await decode({
        token: "not.a.real.jwe.token",
        secret: "config-test-secret-0123456789",
        salt: "authjs.session-token",
      });
    } catch (error) {
      caught = error;
    }
    const warn = vi.spyOn(appLogger, "warn").mockImplementation(() => {});
    const error = vi.spyOn(appLogger, "error").mockImplementation(() => {});
    // Auth.js passes the caught error, which it keeps as cause.err (the same shape as this).
    logger().error(new JWTSessionError("session", { cause: { err: caught } }));
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    const [fields, message] = warn.mock.calls[0] as unknown as [Record<string, unknown>, string];
    expect(message).toBe("auth: request refused (client error)");
    expect(fields).toEqual({ type: "JWTSessionError", reason: "ERR_JWE_INVALID" });
    expect(JSON.stringify(fields)).not.toMatch(/\n\s+at |stack/);
    warn.mockRestore();
    error.mockRestore();
  });

  it("a missing CSRF token is a warning too; a wrong password is info; anything else stays an error with its stack", () => {
    const warn = vi.spyOn(appLogger, "warn").mockImplementation(() => {});
    const info = vi.spyOn(appLogger, "info").mockImplementation(() => {});
    const error = vi.spyOn(appLogger, "error").mockImplementation(() => {});
    logger().error(new MissingCSRF("CSRF token was missing during an action signout"));
    expect(warn.mock.calls[0]?.[0]).toEqual({ type: "MissingCSRF" });
    logger().error(new CredentialsSignin());
    expect(info).toHaveBeenCalledWith("auth: sign-in rejected (credentials)");
    const bug = new AdapterError("connection refused");
    logger().error(bug);
    expect(error).toHaveBeenCalledWith({ err: bug }, "auth error");
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
    info.mockRestore();
    error.mockRestore();
  });
});
