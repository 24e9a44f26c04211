/**
 * savePromptDebug: the chat turn's debug record is one statement when every memory it names is still
 * there, and never brings back the text of a memory deleted while it was being written.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database, Db, DbKind } from "@/db/client";
import { insertMemory } from "@/db/queries/memories";
import { getPromptDebug, type NewPromptDebug, savePromptDebug } from "@/db/queries/prompt-debug";
import { redactDeletedMemories } from "@/db/queries/redaction";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createPair, createUser } from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";

/** `db`, counting the transactions opened through it. */
function counting(db: Db): { db: Db; transactions: () => number } {
  let transactions = 0;
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      if (key === "transaction") transactions += 1;
      return Reflect.get(target, key, receiver);
    },
  });
  return { db: proxy, transactions: () => transactions };
}

/** A database of `kind` with one user and conversation; records and memories of theirs. */
function useDebugFixture(kind: DbKind) {
  const state = { database: useTestDatabase(kind) } as { database: Database; userId: string; conversationId: string };
  beforeAll(async () => {
    state.userId = await createUser(state.database.db, "Debug");
    state.conversationId = await createConversation(state.database.db, state.userId);
  });
  /** A record whose trace and model input carry each memory's line. */
  async function recordOf(memories: { id: string; content: string }[]): Promise<NewPromptDebug> {
    const { database, userId, conversationId } = state;
    const pair = await createPair(database.db, { userId, conversationId }, "What do I like?", "");
    const lines = memories.map((memory) => `• ${memory.content}`);
    return {
      userId,
      conversationId,
      messageId: pair.assistantMessageId,
      modelInput: [{ type: "stream", params: { prompt: [{ role: "system", content: lines.join("\n") }] } }],
      trace: {
        candidates: memories.map((memory, i) => ({
          memoryId: memory.id,
          title: null,
          content: memory.content,
          branch: "semantic",
          rank: i + 1,
          fate: "included",
          line: lines[i],
        })),
        memoryLines: lines,
      },
      provider: "offline",
      modelId: "offline",
      mode: "conversational",
      temperature: 0.7,
      retrievalStatus: "ok",
    };
  }

  const memory = (content: string) =>
    insertMemory(state.database.db, { userId: state.userId, content, provenance: "user_created" });
  const stored = (messageId: string) => getPromptDebug(state.database.db, { userId: state.userId, messageId });
  return { state, recordOf, memory, stored };
}

describe.each(DB_KINDS)("savePromptDebug on %s", (kind) => {
  const { state, recordOf, memory, stored } = useDebugFixture(kind);

  it("writes, and rewrites, in one statement when every memory it names is still there", async () => {
    const [tea, hills] = await Promise.all([memory("Drinks oolong tea"), memory("Walks in the hills")]);
    const record = await recordOf([tea, hills]);
    const { db, transactions } = counting(state.database.db);
    await savePromptDebug(db, record);
    await savePromptDebug(db, { ...record, outputTokens: 12, finishReason: "stop", latencyMs: 40 });
    expect(transactions()).toBe(0);
    const saved = await stored(record.messageId);
    expect(saved).toMatchObject({ outputTokens: 12, finishReason: "stop", temperature: 0.7, mode: "conversational" });
    expect(JSON.stringify(saved.trace)).toContain("Drinks oolong tea");
    expect(saved.modelInput).toEqual(record.modelInput);
    expect(saved.updatedAt.getTime()).toBeGreaterThanOrEqual(saved.createdAt.getTime());
  });

  it("falls back to the transaction that redacts when a memory it names is gone", async () => {
    const [kept, gone] = await Promise.all([memory("Plays chess"), memory("Keeps a Vexmoor journal")]);
    await state.database.db.execute(sql`UPDATE memories SET status = 'deleted' WHERE id = ${gone.id}`);
    const record = await recordOf([kept, gone]);
    const { db, transactions } = counting(state.database.db);
    await savePromptDebug(db, record);
    expect(transactions()).toBe(1);
    const saved = JSON.stringify(await stored(record.messageId));
    expect(saved).not.toContain("Vexmoor");
    expect(saved).toContain("Plays chess");
  });
});

// Two connections at once: Postgres only (PGlite serves one).
describe("savePromptDebug racing a delete, on postgres", () => {
  const { state, recordOf, memory, stored } = useDebugFixture("postgres");

  it("waits for a delete in progress and redacts what it deleted (never writes the text after the delete's redaction)", async () => {
    const { database, userId } = state;
    const secret = await memory("Hides a Quorrith key under the mat");
    const record = await recordOf([secret]);
    let saved: Promise<void> | undefined;
    await database.db.transaction(async (tx) => {
      // A delete as deleteMemory does it: lock the memory, redact what exists (no record yet), mark it deleted.
      await tx.execute(sql`SELECT id FROM memories WHERE id = ${secret.id} FOR UPDATE`);
      await redactDeletedMemories(tx, { userId, memoryIds: [secret.id] });
      await tx.execute(sql`UPDATE memories SET status = 'deleted' WHERE id = ${secret.id}`);
      saved = savePromptDebug(database.db, record);
      // Commit only once the write is waiting for the memory's lock.
      for (let waited = 0; ; waited += 1) {
        const [row] = await database.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if ((row?.n ?? 0) > 0) break;
        if (waited > 200) throw new Error("the debug write never waited for the delete");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
    await saved;
    expect(JSON.stringify(await stored(record.messageId))).not.toContain("Quorrith");
  });
});
