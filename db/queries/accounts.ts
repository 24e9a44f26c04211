import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts } from "@/db/schema";

export async function listLinkedProviders(db: Db, { userId }: { userId: string }): Promise<string[]> {
  const rows = await db.select({ provider: accounts.provider }).from(accounts).where(eq(accounts.userId, userId));
  return rows.map((r) => r.provider).sort();
}

export interface OAuthTokens {
  access_token?: string | null;
  refresh_token?: string | null;
  expires_at?: number | null;
  scope?: string | null;
  token_type?: string | null;
  id_token?: string | null;
}

/** Auth.js writes tokens only when it first links the account; a refresh token is kept when none is sent. */
export async function updateOAuthTokens(
  db: Db,
  input: { userId: string; provider: string; providerAccountId: string; tokens: OAuthTokens },
): Promise<void> {
  const { tokens } = input;
  await db
    .update(accounts)
    .set({
      access_token: tokens.access_token ?? null,
      expires_at: tokens.expires_at ?? null,
      scope: tokens.scope ?? null,
      token_type: tokens.token_type ?? null,
      id_token: tokens.id_token ?? null,
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
      tokensRevokedAt: null,
    })
    .where(
      and(
        eq(accounts.userId, input.userId),
        eq(accounts.provider, input.provider),
        eq(accounts.providerAccountId, input.providerAccountId),
      ),
    );
}

export type ProviderAccount = typeof accounts.$inferSelect;

export async function getProviderAccount(
  db: Db,
  input: { userId: string; provider: string },
): Promise<ProviderAccount | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.userId, input.userId), eq(accounts.provider, input.provider)))
    .limit(1);
  return row ?? null;
}

export interface AccountKey {
  userId: string;
  provider: string;
  providerAccountId: string;
}

const byKey = (key: AccountKey) =>
  and(
    eq(accounts.userId, key.userId),
    eq(accounts.provider, key.provider),
    eq(accounts.providerAccountId, key.providerAccountId),
  );

export interface LockedTokens {
  /** A refresh token is kept when the provider sends none. */
  store(tokens: OAuthTokens): Promise<ProviderAccount>;
  revoke(at: Date): Promise<void>;
}

/**
 * One token refresh at a time per account across instances: a second waits, then reads what the first wrote.
 * `work` must not touch the database except through `tokens`.
 */
export async function lockAccountTokens<T>(
  db: Db,
  key: AccountKey,
  work: (row: ProviderAccount | null, tokens: LockedTokens) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(accounts).where(byKey(key)).for("update");
    return work(row ?? null, {
      async store(tokens) {
        const [updated] = await tx
          .update(accounts)
          .set({
            access_token: tokens.access_token ?? null,
            expires_at: tokens.expires_at ?? null,
            scope: tokens.scope ?? null,
            token_type: tokens.token_type ?? null,
            id_token: tokens.id_token ?? null,
            ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
          })
          .where(byKey(key))
          .returning();
        if (!updated) throw new Error("lockAccountTokens: the locked account row is gone");
        return updated;
      },
      async revoke(at) {
        await tx
          .update(accounts)
          .set({
            access_token: null,
            refresh_token: null,
            expires_at: null,
            id_token: null,
            scope: null,
            tokensRevokedAt: at,
          })
          .where(byKey(key));
      },
    });
  });
}
