import { userGoneAsUnauthorized } from "@/core/errors";
import type { Db } from "@/db/client";
import { listLinkedProviders } from "@/db/queries/accounts";
import { type Account, deleteUser, getAccount, updateAccount } from "@/db/queries/users";
import { route } from "@/lib/api/route";
import { accountDeleteBody, accountUpdateBody } from "@/lib/auth/account-schemas";
import { confirmAccountHolder } from "@/lib/auth/reauth";
import { clearedSessionCookies } from "@/lib/auth/revocation";

async function accountView(db: Db, account: Account) {
  const providers = await listLinkedProviders(db, { userId: account.id });
  return {
    account: {
      id: account.id,
      email: account.email,
      name: account.name,
      image: account.image,
      memoryEnabledDefault: account.memoryEnabledDefault,
      timeZone: account.timeZone,
      hasPassword: account.hasPassword,
      providers,
      createdAt: account.createdAt,
    },
  };
}

export const GET = route({}, async ({ db, userId }) => {
  const account = await getAccount(db, { userId }).catch(userGoneAsUnauthorized);
  return accountView(db, account);
});

/** A new email needs `currentPassword`, or for Google-only accounts a sign-in in the last 10 minutes. */
export const PATCH = route({ body: accountUpdateBody }, async ({ db, userId, body, request }) => {
  const { currentPassword, ...patch } = body;
  if (patch.email !== undefined) {
    const current = await getAccount(db, { userId }).catch(userGoneAsUnauthorized);
    if (patch.email !== current.email.toLowerCase()) {
      await confirmAccountHolder(db, { userId, request, currentPassword });
    }
  }
  const account = await updateAccount(db, { userId, patch }).catch(userGoneAsUnauthorized);
  return accountView(db, account);
});

/** Everything owned goes through ON DELETE CASCADE; confirmation as for a new email. */
export const DELETE = route({ body: accountDeleteBody }, async ({ db, userId, body, request, log }) => {
  await confirmAccountHolder(db, { userId, request, currentPassword: body.currentPassword });
  await deleteUser(db, { userId }).catch(userGoneAsUnauthorized);
  log.info("account deleted");
  const headers = new Headers({ "cache-control": "no-store" });
  for (const cookie of clearedSessionCookies()) headers.append("set-cookie", cookie);
  return new Response(null, { status: 204, headers });
});
