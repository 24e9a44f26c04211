/** An unreachable database is an error page that says so, never a redirect to sign-in as if signed out. */
import { sql } from "drizzle-orm";
import { isAppError } from "@/core/errors";
import { logger } from "@/core/logger";
import type { Db } from "@/db/client";
import { type ConversationPage, listConversations } from "@/db/queries/conversations";
import { type Account, getAccount } from "@/db/queries/users";

export type ShellData =
  | { kind: "ok"; account: Account; page: ConversationPage }
  | { kind: "signed-out" }
  | { kind: "database-unavailable" };

export async function loadShellData(deps: {
  getDb: () => Promise<Db>;
  getSessionUserId: () => Promise<string | null>;
}): Promise<ShellData> {
  try {
    const userId = await deps.getSessionUserId();
    if (!userId) return { kind: "signed-out" };
    const db = await deps.getDb();
    const [account, page] = await Promise.all([
      getAccount(db, { userId }),
      listConversations(db, { userId, limit: 30 }),
    ]);
    return { kind: "ok", account, page };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found:user") return { kind: "signed-out" };
    // Only a database that does not answer is "unavailable"; any other failure is the error page's.
    if (await answers(deps.getDb)) throw error;
    logger.error({ err: error }, "the app layout could not load its data: the database is unreachable");
    return { kind: "database-unavailable" };
  }
}

async function answers(getDb: () => Promise<Db>): Promise<boolean> {
  try {
    await (await getDb()).execute(sql`SELECT 1`);
    return true;
  } catch {
    return false;
  }
}
