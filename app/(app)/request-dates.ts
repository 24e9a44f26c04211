import { headers } from "next/headers";
import { cache } from "react";
import { getDb } from "@/db/client";
import { getAccount } from "@/db/queries/users";
import { type DateContext, dateContext } from "@/lib/ui/format";

/** Cached per request, so a page and its components read the account once. */
export const requestDates = cache(async (userId: string): Promise<DateContext> => {
  const [account, requestHeaders] = await Promise.all([getAccount(await getDb(), { userId }), headers()]);
  return dateContext(requestHeaders.get("accept-language"), account.timeZone);
});
