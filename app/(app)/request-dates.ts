import { headers } from "next/headers";
import { cache } from "react";
import { getDb } from "@/db/client";
import { getAccount } from "@/db/queries/users";
import { type DateContext, dateContext } from "@/lib/ui/format";

/**
 * The request's date context for a signed-in page: the browser's Accept-Language and the account's
 * time zone. Cached per request, so a page and its components read the account once.
 */
export const requestDates = cache(async (userId: string): Promise<DateContext> => {
  const [account, requestHeaders] = await Promise.all([getAccount(await getDb(), { userId }), headers()]);
  return dateContext(requestHeaders.get("accept-language"), account.timeZone);
});
