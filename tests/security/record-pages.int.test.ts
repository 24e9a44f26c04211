/**
 * proxy.ts answers 404 for a record page that is not the signed-in user's (recordPageExists): an import's
 * page (and its page numbers past the last), and the Inspect page of an imported answer (which has an
 * extraction and no debug record).
 * tests/production/not-found.prod.test.ts checks the status through `next start`.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { addImportBatch, createImport, IMPORT_PAGE, listImports } from "@/db/queries/imports";
import { memoryExtractions } from "@/db/schema";
import { recordPageExists } from "@/lib/ui/record-pages";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createPair, createUser } from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";

describe.each(DB_KINDS)("record pages of an import on %s", (kind) => {
  const database = useTestDatabase(kind);
  const db = () => database.db;

  it("an import's page and its answers' Inspect pages exist for their owner only", async () => {
    const owner = await createUser(db());
    const intruder = await createUser(db(), "Eve");
    const row = await createImport(db(), { userId: owner, source: "claude", fileName: "export.zip" });
    await addImportBatch(db(), {
      userId: owner,
      importId: row.id,
      runner: "in-process",
      conversations: [
        {
          sourceId: "c1",
          title: "Porto",
          createdAt: "2024-01-01T09:00:00Z",
          messages: [
            { sourceId: "u1", role: "user", text: "I live in Porto.", createdAt: "2024-01-01T09:00:00Z" },
            { sourceId: "a1", role: "assistant", text: "Nice!", createdAt: "2024-01-01T09:01:00Z" },
          ],
        },
      ],
    });
    const [exchange] = await db().select().from(memoryExtractions);
    const answer = exchange?.assistantMessageId ?? "";

    const importPage = `/settings/imports/${row.id}`;
    const inspect = `/messages/${answer}/debug`;
    for (const page of [importPage, inspect]) {
      expect(await recordPageExists(db(), owner, page), page).toBe(true);
      expect(await recordPageExists(db(), intruder, page), page).toBe(false);
    }
    expect(await recordPageExists(db(), owner, `/settings/imports/${randomUUID()}`)).toBe(false);
    expect(await recordPageExists(db(), owner, "/settings/imports/not-an-id")).toBe(false);
    // The question of the exchange has no Inspect page.
    expect(await recordPageExists(db(), owner, `/messages/${exchange?.userMessageId}/debug`)).toBe(false);
  });

  it("an import's page numbers exist up to its last page: past it, or not one number, is not found", async () => {
    const owner = await createUser(db());
    const intruder = await createUser(db(), "Eve");
    const row = await createImport(db(), { userId: owner, source: "chatgpt", fileName: "export.zip" });
    const perPage = IMPORT_PAGE.conversations;
    await addImportBatch(db(), {
      userId: owner,
      importId: row.id,
      runner: "in-process",
      conversations: Array.from({ length: perPage + 1 }, (_, i) => ({
        sourceId: `c${i}`,
        title: `Chat ${i}`,
        createdAt: "2024-01-01T09:00:00Z",
        messages: [
          { sourceId: `u${i}`, role: "user" as const, text: `Fact ${i}.`, createdAt: "2024-01-01T09:00:00Z" },
          // Each message its own words: a message is found again by its content hash too.
          { sourceId: `a${i}`, role: "assistant" as const, text: `Noted ${i}.`, createdAt: "2024-01-01T09:01:00Z" },
        ],
      })),
    });
    const page = `/settings/imports/${row.id}`;
    const exists = (userId: string, query: string) => recordPageExists(db(), userId, page, new URLSearchParams(query));
    for (const query of ["", "page=1", "page=2"]) expect(await exists(owner, query), query).toBe(true);
    for (const query of ["page=3", "page=0", "page=-1", "page=two", "page=1&page=2", "page=", "page=1.5"]) {
      expect(await exists(owner, query), query).toBe(false);
    }
    expect(await exists(intruder, "page=1")).toBe(false);
    // Settings → Import lists the user's own imports only.
    expect((await listImports(db(), { userId: owner, limit: 10 })).map((i) => i.id)).toEqual([row.id]);
    expect(await listImports(db(), { userId: intruder, limit: 10 })).toEqual([]);

    // An import with no conversation (all sent in a batch that failed, or none kept) has its first page only.
    const empty = await createImport(db(), { userId: owner, source: "claude", fileName: "empty.zip" });
    const emptyPage = `/settings/imports/${empty.id}`;
    expect(await recordPageExists(db(), owner, emptyPage, new URLSearchParams(""))).toBe(true);
    expect(await recordPageExists(db(), owner, emptyPage, new URLSearchParams("page=2"))).toBe(false);
  });

  it("a live answer without a debug record has no Inspect page, even with an extraction", async () => {
    const owner = await createUser(db());
    const conversationId = await createConversation(db(), owner);
    const pair = await createPair(db(), { userId: owner, conversationId }, "I live in Lyon.", "Noted.");
    await db()
      .insert(memoryExtractions)
      .values({ ...pair, status: "queued" });
    expect(await recordPageExists(db(), owner, `/messages/${pair.assistantMessageId}/debug`)).toBe(false);
  });
});
