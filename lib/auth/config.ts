/**
 * The Auth.js configuration, built per request from the process database (lib/auth/index.ts).
 *
 * - Sessions are JWTs in an encrypted cookie (Credentials requires it); `token.sub` is our user id,
 *   exposed as `session.user.id`. lib/auth/session.ts decodes the same cookie for API routes.
 * - Email + password through the Credentials provider (accounts are created by POST /api/auth/register).
 * - Google, only when AUTH_GOOGLE_ID and AUTH_GOOGLE_SECRET are set (lib/auth/google.ts).
 * - The drizzle adapter stores users and linked accounts (Google tokens) in our tables.
 */
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import type { DefaultSession, NextAuthConfig } from "next-auth";
import type { Adapter } from "next-auth/adapters";
import Credentials from "next-auth/providers/credentials";
import { logger } from "@/core/logger";
import type { Db } from "@/db/client";
import { updateOAuthTokens } from "@/db/queries/accounts";
import { findUserForSignIn } from "@/db/queries/users";
import { accounts, sessions, users, verificationTokens } from "@/db/schema";
import { signInCredentials } from "@/lib/validation/account";
import { GOOGLE_PROVIDER_ID, googleProvider } from "./google";
import { verifyPassword } from "./password";
import { getAuthSecret } from "./secret";

declare module "next-auth" {
  interface Session {
    user: { id: string } & DefaultSession["user"];
  }
}

export const SIGN_IN_PAGE = "/login";

/** The drizzle adapter over our tables, with emails normalised to lower case like everywhere else. */
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

/** The Credentials provider: email + password, checked against the bcrypt hash in users. */
function passwordProvider(db: Db) {
  return Credentials({
    id: "credentials",
    name: "Email and password",
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    async authorize(raw) {
      const parsed = signInCredentials.safeParse(raw);
      if (!parsed.success) return null;
      const user = await findUserForSignIn(db, { email: parsed.data.email });
      // Always one bcrypt comparison, even for unknown emails (see verifyPassword).
      const ok = await verifyPassword(parsed.data.password, user?.passwordHash);
      if (!user || !ok) return null;
      return { id: user.id, email: user.email, name: user.name };
    },
  });
}

export function createAuthConfig(db: Db, env: NodeJS.ProcessEnv = process.env): NextAuthConfig {
  const google = googleProvider(env);
  return {
    secret: getAuthSecret(env),
    adapter: lifelineAdapter(db),
    session: { strategy: "jwt" },
    pages: { signIn: SIGN_IN_PAGE, error: SIGN_IN_PAGE },
    providers: google ? [passwordProvider(db), google] : [passwordProvider(db)],
    callbacks: {
      async signIn({ account, profile }) {
        // Only Google addresses Google itself has verified may create or enter an account.
        if (account?.provider === GOOGLE_PROVIDER_ID) return profile?.email_verified === true;
        return true;
      },
      async jwt({ token, user }) {
        if (user?.id) token.sub = user.id;
        return token;
      },
      async session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
    events: {
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
        // A wrong password is not a server error.
        if ((error as { type?: string }).type === "CredentialsSignin")
          logger.info("auth: sign-in rejected (credentials)");
        else logger.error({ err: error }, "auth error");
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
