/**
 * Asked by proxy.ts before the page renders: those pages stream behind a loading boundary whose first
 * bytes fix the status at 200, so only this can make a missing record — or a page number past an
 * import's last page — answer 404.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { importPageCount } from "@/db/queries/imports";
import { conversations, mcpCalls, memoryExtractions, promptDebug } from "@/db/schema";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
const ID = "([^/]+)";

const PAGE_NUMBER = /^[1-9]\d{0,6}$/;

/**
 * The page of an import's page a `?page=` asks for: 1 without one, null (a 404) for anything but one
 * number from 1 (a repeated parameter included). The page and proxy.ts read it alike.
 */
export function importPageNumber(value: string | string[] | undefined): number | null {
  if (value === undefined) return 1;
  return typeof value === "string" && PAGE_NUMBER.test(value) ? Number(value) : null;
}

const RECORD_PAGES: {
  path: RegExp;
  exists: (db: Db, userId: string, id: string, search: URLSearchParams) => Promise<boolean>;
}[] = [
  {
    path: new RegExp(`^/chat/${ID}/?$`),
    exists: async (db, userId, id) =>
      (
        await db
          .select({ id: conversations.id })
          .from(conversations)
          .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
          .limit(1)
      ).length > 0,
  },
  {
    // A debug view exists for an answer, which has a debug record, or for an imported answer, which has an
    // extraction and no record; a question has neither.
    path: new RegExp(`^/messages/${ID}/debug/?$`),
    exists: async (db, userId, id) =>
      (
        await db
          .select({ id: promptDebug.id })
          .from(promptDebug)
          .where(and(eq(promptDebug.messageId, id), eq(promptDebug.userId, userId)))
          .limit(1)
      ).length > 0 ||
      (
        await db
          .select({ id: memoryExtractions.id })
          .from(memoryExtractions)
          .innerJoin(
            conversations,
            and(eq(conversations.id, memoryExtractions.conversationId), isNotNull(conversations.importedFrom)),
          )
          .where(and(eq(memoryExtractions.assistantMessageId, id), eq(memoryExtractions.userId, userId)))
          .limit(1)
      ).length > 0,
  },
  {
    path: new RegExp(`^/settings/imports/${ID}/?$`),
    exists: async (db, userId, id, search) => {
      const asked = search.getAll("page");
      const page = importPageNumber(asked.length > 1 ? asked : asked[0]);
      if (page === null) return false;
      const pages = await importPageCount(db, { userId, importId: id });
      return pages !== null && page <= pages;
    },
  },
  {
    path: new RegExp(`^/settings/external-calls/${ID}/?$`),
    exists: async (db, userId, id) =>
      (
        await db
          .select({ id: mcpCalls.id })
          .from(mcpCalls)
          .where(and(eq(mcpCalls.id, id), eq(mcpCalls.userId, userId)))
          .limit(1)
      ).length > 0,
  },
];

export function isRecordPage(pathname: string): boolean {
  return RECORD_PAGES.some((page) => page.path.test(pathname));
}

export async function recordPageExists(
  db: Db,
  userId: string,
  pathname: string,
  search: URLSearchParams = new URLSearchParams(),
): Promise<boolean> {
  for (const page of RECORD_PAGES) {
    const id = page.path.exec(pathname)?.[1];
    if (id === undefined) continue;
    return new RegExp(`^${UUID}$`).test(id) && (await page.exists(db, userId, id, search));
  }
  return true;
}
