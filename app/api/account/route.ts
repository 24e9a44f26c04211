import { userGoneAsUnauthorized } from "@/core/errors";
import type { Db } from "@/db/client";
import { listLinkedProviders } from "@/db/queries/accounts";
import { type Account, getAccount, updateAccount } from "@/db/queries/users";
import { route } from "@/lib/api/route";
import { accountPatchBody } from "@/lib/validation/account";

async function accountView(db: Db, account: Account) {
  const providers = await listLinkedProviders(db, { userId: account.id });
  return {
    account: {
      id: account.id,
      email: account.email,
      name: account.name,
      image: account.image,
      memoryEnabledDefault: account.memoryEnabledDefault,
      hasPassword: account.hasPassword,
      providers,
      createdAt: account.createdAt,
    },
  };
}

/** GET /api/account → {account}. */
export const GET = route({}, async ({ db, userId }) => {
  const account = await getAccount(db, { userId }).catch(userGoneAsUnauthorized);
  return accountView(db, account);
});

/** PATCH /api/account {name?, email?, memoryEnabledDefault?} → {account}; 409 conflict:email. */
export const PATCH = route({ body: accountPatchBody }, async ({ db, userId, body }) => {
  const account = await updateAccount(db, { userId, patch: body }).catch(userGoneAsUnauthorized);
  return accountView(db, account);
});
