/** Sessions are JWTs in an encrypted cookie because the Credentials provider requires it. */
import { createHash } from "node:crypto";
// The class next-auth re-exports (the same module): importing it from "next-auth" itself would pull
// in next/server at import time.
import { CredentialsSignin } from "@auth/core/errors";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import type { DefaultSession, NextAuthConfig } from "next-auth";
import type { Adapter } from "next-auth/adapters";
import Credentials from "next-auth/providers/credentials";
import { env as processEnv, type RawEnv } from "@/core/env";
import { logger } from "@/core/logger";
import type { Db } from "@/db/client";
import { updateOAuthTokens } from "@/db/queries/accounts";
import { findUserForSignIn, userExists } from "@/db/queries/users";
import { accounts, sessions, users, verificationTokens } from "@/db/schema";
import { getRateLimiter } from "@/lib/limits/rate-limit";
import { signInCredentials } from "@/lib/validation/account";
import { clientAddress } from "./client-address";
import { GOOGLE_PROVIDER_ID, googleProvider } from "./google";
import { PasswordHashingBusy, verifyPassword } from "./password";
import { endSession, newSessionClaims, SESSION_MAX_AGE_S } from "./revocation";
import { getAuthSecret } from "./secret";

declare module "next-auth" {
  interface Session {
    user: { id: string } & DefaultSession["user"];
  }
  interface User {
    sessionVersion?: number;
  }
}

export const SIGN_IN_PAGE = "/login";

/** Logged as a warning without a stack, so nobody can fill the error log from outside. */
export const CLIENT_AUTH_ERRORS: ReadonlySet<string> = new Set([
  "JWTSessionError",
  "MissingCSRF",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "AccessDenied",
  "Verification",
  "AccountNotLinked",
  "WebAuthnVerificationError",
]);

export function lifelineAdapter(db: Db): Adapter {
  const base = DrizzleAdapter(db, {
    usersTable: users,
    accountsTable: accounts,
    sessionsTable: sessions,
    verificationTokensTable: verificationTokens,
  });
  const { createUser, getUserByEmail } = base;
  if (!createUser || !getUserByEmail) throw new Error("@auth/drizzle-adapter without createUser/getUserByEmail");
  return {
    ...base,
    createUser: (user) => createUser({ ...user, email: user.email.toLowerCase() }),
    getUserByEmail: (email) => getUserByEmail(email.toLowerCase()),
  };
}

export class SignInRateLimited extends CredentialsSignin {
  code = "rate_limited";
}

export class SignInBusy extends CredentialsSignin {
  code = "busy";
}

/** Hashed: rate-limit keys are not user data. */
export const signInAccountKey = (email: string) =>
  `email:${createHash("sha256").update(email.trim().toLowerCase()).digest("base64url")}`;

/** Limits are counted before any hashing; a success gives the address's hit back. */
function passwordProvider(db: Db) {
  return Credentials({
    id: "credentials",
    name: "Email and password",
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    async authorize(raw, request) {
      const parsed = signInCredentials.safeParse(raw);
      if (!parsed.success) return null;
      const accountKey = signInAccountKey(parsed.data.email);
      const address = request ? clientAddress(request.headers) : null;
      const byAccount = getRateLimiter("signin");
      const byAddress = address ? getRateLimiter("signinIp") : null;
      const [accountDecision, addressDecision] = await Promise.all([
        byAccount?.take(db, accountKey),
        address ? byAddress?.take(db, address) : undefined,
      ]);
      if (accountDecision?.ok === false || addressDecision?.ok === false) {
        logger.warn({ limit: accountDecision?.ok === false ? "signin" : "signinIp" }, "auth: sign-in rate limited");
        throw new SignInRateLimited();
      }
      const user = await findUserForSignIn(db, { email: parsed.data.email });
      let ok: boolean;
      try {
        // Always one bcrypt comparison, even for unknown emails (see verifyPassword).
        ok = await verifyPassword(parsed.data.password, user?.passwordHash);
      } catch (error) {
        if (!(error instanceof PasswordHashingBusy)) throw error;
        // Not the caller's fault: the attempt does not count.
        await Promise.all([byAccount?.refund(db, accountKey), address ? byAddress?.refund(db, address) : undefined]);
        throw new SignInBusy();
      }
      if (!user || !ok) return null;
      await Promise.all([byAccount?.reset(db, accountKey), address ? byAddress?.refund(db, address) : undefined]);
      return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
    },
  });
}

export function createAuthConfig(db: Db, env: RawEnv = processEnv()): NextAuthConfig {
  const google = googleProvider(env);
  return {
    secret: getAuthSecret(env),
    adapter: lifelineAdapter(db),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: SIGN_IN_PAGE, error: SIGN_IN_PAGE },
    providers: google ? [passwordProvider(db), google] : [passwordProvider(db)],
    callbacks: {
      async signIn({ account, profile }) {
        // Only Google addresses Google itself has verified may create or enter an account.
        if (account?.provider === GOOGLE_PROVIDER_ID) return profile?.email_verified === true;
        return true;
      },
      async jwt({ token, user }) {
        if (user?.id) {
          // Without a version, 0: a session an already-bumped account then refuses (fail closed).
          token.sub = user.id;
          Object.assign(token, newSessionClaims(typeof user.sessionVersion === "number" ? user.sessionVersion : 0));
          return token;
        }
        // An ended session is no session; Auth.js then deletes the cookie.
        if (typeof token.sub === "string") {
          const session = {
            sessionId: typeof token.sid === "string" ? token.sid : undefined,
            sessionVersion: typeof token.sv === "number" ? token.sv : undefined,
          };
          if (!(await userExists(db, { userId: token.sub, session }))) return null;
        }
        return token;
      },
      async session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
    events: {
      async signOut(message) {
        // This browser's session ends for good: the cookie stops working even if it was copied.
        if ("token" in message && message.token) await endSession(db, message.token);
      },
      async signIn({ user, account }) {
        // Auth.js stores OAuth tokens only when it first links an account: keep them fresh.
        if (account?.provider === GOOGLE_PROVIDER_ID && user.id) {
          await updateOAuthTokens(db, {
            userId: user.id,
            provider: account.provider,
            providerAccountId: account.providerAccountId,
            tokens: account,
          });
        }
      },
    },
    logger: {
      error(error) {
        const type = (error as { type?: string }).type;
        // A wrong password is not a server error.
        if (type === "CredentialsSignin") logger.info("auth: sign-in rejected (credentials)");
        else if (type && CLIENT_AUTH_ERRORS.has(type)) {
          // One warn line, no stack: a client's fault must not fill the error log.
          const caught = (error as { cause?: { err?: { code?: unknown } } }).cause?.err;
          const reason = typeof caught?.code === "string" ? caught.code : undefined;
          logger.warn({ type, ...(reason ? { reason } : {}) }, "auth: request refused (client error)");
        } else logger.error({ err: error }, "auth error");
      },
      warn(code) {
        logger.warn({ code }, "auth warning");
      },
      debug(message, metadata) {
        logger.debug({ metadata }, `auth: ${message}`);
      },
    },
  };
}
