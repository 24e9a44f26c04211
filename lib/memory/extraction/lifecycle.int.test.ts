/**
 * The seed's lifecycle probe, on real databases: a memory extracted after an answer in
 * conversation A reaches the prompt of a new conversation B (through previewContext), and the
 * offline model answers from it. Also: failures leave the chat untouched, and deleted, superseded
 * and pending memories never reach retrieval.
 */
import { generateText } from "ai";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { retrievalConfig } from "@/core/config";
import { getExtraction } from "@/db/queries/extractions";
import { deleteMemory, restoreMemory } from "@/db/queries/memories";
import { memories, messages } from "@/db/schema";
import { type ExtractionDispatcher, enqueueExtraction } from "@/lib/jobs/extraction-queue";
import { InProcessRunner } from "@/lib/jobs/in-process-runner";
import { previewContext } from "@/lib/memory/retrieval/assemble";
import { retrieveSemantic } from "@/lib/memory/retrieval/retrieve";
import { embedOffline } from "@/lib/offline/embedder";
import { offlineLanguageModel } from "@/lib/offline/model";
import { DB_KINDS } from "@/tests/db";
import {
  createConversation,
  createPair,
  createUser,
  embedWith,
  mockEmbeddingModel,
  OFFLINE_EMBEDDER_ID,
  testDeps,
} from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";

const embed = async (text: string) => embedOffline(text);

describe.each(DB_KINDS)("extraction lifecycle on %s", (kind) => {
  const database = useTestDatabase(kind);

  /** Saves an exchange and extracts from it the way the chat turn does, then waits for the job. */
  async function chat(
    owner: { userId: string; conversationId: string },
    userText: string,
    assistantText: string,
    deps: Parameters<typeof testDeps>[1] = {},
  ) {
    const pair = await createPair(database.db, owner, userText, assistantText);
    const runner = new InProcessRunner({
      deps: async () => testDeps(database.db, deps),
      backoff: { backoffBaseMs: 1, backoffMaxMs: 1 },
    });
    const dispatcher: ExtractionDispatcher = { kind: "in-process", dispatch: (job) => runner.run(job) };
    const { extractionId } = await enqueueExtraction(database.db, { ...pair, memoryEnabled: true }, dispatcher);
    await runner.idle();
    return { pair, extractionId };
  }

  it("a memory saved from conversation A is in the prompt of a new conversation B, and the answer uses it", async () => {
    const userId = await createUser(database.db, "Ada");
    const a = { userId, conversationId: await createConversation(database.db, userId) };
    await chat(a, "By the way, my sister's name is Maya.", "Thanks for telling me!");
    const b = { userId, conversationId: await createConversation(database.db, userId) };

    const { messages: input, trace } = await previewContext(database.db, {
      userId,
      userName: "Ada",
      conversationId: b.conversationId,
      message: "What is my sister's name?",
      history: [],
      mode: "conversational",
      memoryEnabled: true,
      embed,
      embeddingModel: OFFLINE_EMBEDDER_ID,
    });

    expect(trace.status).toBe("ok");
    // The title repeats the content's start: the line is the content alone.
    expect(trace.memoryLines).toEqual(["• Sister's name is Maya"]);
    expect(trace.candidates).toEqual([
      expect.objectContaining({ content: "Sister's name is Maya", branch: "semantic", fate: "included" }),
    ]);
    const { text } = await generateText({ model: offlineLanguageModel, messages: input, allowSystemInMessages: true });
    expect(text).toContain("Maya");
  });

  it("extraction and embedding failures leave the chat's messages intact and add no memory", async () => {
    const userId = await createUser(database.db, "Bea");
    const owner = { userId, conversationId: await createConversation(database.db, userId) };
    const { pair, extractionId } = await chat(owner, "I live in Lisbon", "Lisbon is lovely.", {
      embed: embedWith(mockEmbeddingModel(() => new Error("embedder down"))),
    });

    expect(await getExtraction(database.db, { extractionId })).toMatchObject({
      status: "failed",
      lastError: expect.stringMatching(/^embed: embedder down/),
    });
    expect(await database.db.select().from(memories).where(eq(memories.userId, userId))).toEqual([]);
    const saved = await database.db
      .select({ id: messages.id, content: messages.content, status: messages.status })
      .from(messages)
      .where(eq(messages.conversationId, owner.conversationId))
      .orderBy(asc(messages.createdAt));
    expect(saved).toEqual([
      { id: pair.userMessageId, content: "I live in Lisbon", status: "complete" },
      { id: pair.assistantMessageId, content: "Lisbon is lovely.", status: "complete" },
    ]);
  });

  it("retrieval never returns deleted, superseded or pending memories — and a restored one comes back", async () => {
    const userId = await createUser(database.db, "Cy");
    const owner = { userId, conversationId: await createConversation(database.db, userId) };
    await chat(owner, "I prefer green tea", "Noted.");
    await chat(owner, "I prefer black tea", "Black tea, noted.");
    await chat(owner, "I live in Oslo", "Nice.");
    const rows = await database.db.select().from(memories).where(eq(memories.userId, userId));
    const byContent = (content: string) => rows.find((m) => m.content === content);
    expect(byContent("Prefers green tea")?.status).toBe("superseded");
    const oslo = byContent("Lives in Oslo");
    if (!oslo) throw new Error("no Oslo memory");

    const retrieve = async (question: string) =>
      (
        await retrieveSemantic(database.db, {
          userId,
          embedding: embedOffline(question),
          now: new Date(),
          config: retrievalConfig,
        })
      ).candidates.map((c) => c.content);

    expect(await retrieve("Drink preference: which tea?")).toEqual(["Prefers black tea"]);
    expect(await retrieve("Home: where do I live?")).toEqual(["Lives in Oslo"]);

    await deleteMemory(database.db, { userId, memoryId: oslo.id });
    expect(await retrieve("Home: where do I live?")).toEqual([]);
    await restoreMemory(database.db, { userId, memoryId: oslo.id });
    expect(await retrieve("Home: where do I live?")).toEqual(["Lives in Oslo"]);
  });
});
