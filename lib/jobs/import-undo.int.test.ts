/**
 * Undoing an import puts back what the user had before it, on both databases: a memory the import's consolidation
 * updated goes back to its earlier version (words, vector, evidence, history) unless something changed it since — an
 * edit, a live extraction, a delete — and then it stays as it is and the answer names it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getPromptDebug, savePromptDebug } from "@/db/queries/prompt-debug";
import { half, memoryEmbeddingText } from "@/db/queries/vectors";
import { memories, memoryEvents } from "@/db/schema";
import { createAiRegistry } from "@/lib/ai/registry";
import { readExport } from "@/lib/import/read-export";
import { CONSOLIDATION_OUTPUT_NAME } from "@/lib/memory/extraction/consolidation-schema";
import { DB_KINDS } from "@/tests/db";
import {
  createConversation,
  createQueuedPair,
  promptText,
  scriptedModel,
  startedImport,
  testDeps,
} from "@/tests/fixtures/jobs";
import { registerAndSignIn } from "@/tests/http-client";
import { useTestServer } from "@/tests/test-server";
import { runExtraction } from "./extraction-job";
import { runImport } from "./import-job";
import type { JobSteps } from "./steps";

process.env.AUTH_SECRET ??= "import-undo-test-secret-0123456789abcdef";

const exported = readExport(readFileSync(join(__dirname, "../import/fixtures/chatgpt-conversations.json")));
const steps: JobSteps = { runner: "in-process", run: (_id, fn) => fn(), retryAt: (_n, now) => now };

/** Consolidation merges any candidate that meets `targetId` into it, with these words; other calls get the offline model's answer. */
function mergingInto(targetId: () => string, content: string) {
  return scriptedModel({
    [CONSOLIDATION_OUTPUT_NAME]: (options) =>
      promptText(options).includes(targetId())
        ? JSON.stringify({ action: "UPDATE", targetId: targetId(), content, title: null, reason: "more detail" })
        : null,
  });
}

describe.each(DB_KINDS)("undoing an import on %s", (kind) => {
  const context = useTestServer(kind);
  const db = () => context.database.db;
  let label = 0;

  /** A user with "Lives in Lisbon" remembered from a live chat before any import. */
  async function userWithAMemory() {
    const owner = await registerAndSignIn(context.server.url, `import-undo-${kind}-${label++}`);
    const conversationId = await createConversation(db(), owner.id);
    const pair = await createQueuedPair(db(), { userId: owner.id, conversationId }, "I live in Lisbon", "Lovely city.");
    await runExtraction(testDeps(db()), { extractionId: pair.extraction.id }, steps);
    const [before, ...others] = await memoriesOf(owner.id);
    if (!before || others.length > 0) throw new Error("expected one memory from the live chat");
    return { owner, conversationId, before };
  }

  const memoriesOf = (userId: string) =>
    db().select().from(memories).where(eq(memories.userId, userId)).orderBy(asc(memories.createdAt));
  const memoryOf = async (id: string) => (await db().select().from(memories).where(eq(memories.id, id)))[0];
  const historyOf = (id: string) =>
    db()
      .select({ action: memoryEvents.action, actor: memoryEvents.actor, after: memoryEvents.after })
      .from(memoryEvents)
      .where(eq(memoryEvents.memoryId, id))
      .orderBy(asc(memoryEvents.createdAt));

  /** The fixture export, imported and run to the end with consolidation merging what meets `targetId`. */
  async function importMerging(userId: string, targetId: string, content: string) {
    const importId = await startedImport(db(), userId, exported.conversations);
    const model = mergingInto(() => targetId, content);
    expect(await runImport(testDeps(db(), { model }), { importId }, steps)).toMatchObject({ status: "done" });
    const updated = await memoryOf(targetId);
    expect(updated?.content).toBe(content);
    return importId;
  }

  it("puts a memory the import updated back as it was: words, vector, evidence, recency and history; its records stay readable", async () => {
    const { owner, conversationId, before } = await userWithAMemory();
    const liveHistory = await historyOf(before.id);
    // A chat turn that recalled the memory before the import: its debug record names it.
    const [answer] = await db()
      .select({ id: memories.sourceAssistantMessageId })
      .from(memories)
      .where(eq(memories.id, before.id));
    await savePromptDebug(db(), {
      userId: owner.id,
      conversationId,
      messageId: answer?.id ?? "",
      modelInput: [],
      trace: { candidates: [{ memoryId: before.id, content: before.content, line: `- ${before.content}` }] },
      provider: "offline",
      modelId: "offline",
      mode: "conversational",
      temperature: 0.7,
      retrievalStatus: "ok",
    });

    const importId = await importMerging(owner.id, before.id, "Lives in Lisbon and cycles to work every day");
    const created = (await memoriesOf(owner.id)).filter((m) => m.id !== before.id);

    const undo = await owner.client.request("DELETE", `/api/imports/${importId}`);
    expect(undo.status).toBe(200);
    expect(undo.json).toEqual({
      undone: {
        conversationsDeleted: 2,
        memoriesErased: created.length,
        memoriesRestored: 1,
        memoriesKept: 0,
        kept: [],
      },
    });

    const after = await memoryOf(before.id);
    expect(after).toMatchObject({
      content: before.content,
      title: before.title,
      type: before.type,
      tags: before.tags,
      importance: before.importance,
      confidence: before.confidence,
      evidence: before.evidence,
      examinedMessageIds: before.examinedMessageIds,
      provenance: before.provenance,
      status: "active",
      updatedAt: before.updatedAt,
    });
    // The vector describes the words it has again, embedded by the server's embedder.
    const { embedder } = createAiRegistry();
    const [vector] = await embedder.embed([memoryEmbeddingText(before)]);
    expect(after?.embeddingModel).toBe(embedder.model);
    expect(after?.embedding?.map(half)).toEqual(vector?.map(half));
    expect(await historyOf(before.id)).toEqual(liveHistory);
    expect((await memoriesOf(owner.id)).map((m) => m.id)).toEqual([before.id]);

    const debug = await getPromptDebug(db(), { userId: owner.id, messageId: answer?.id ?? "" });
    expect(debug?.trace).toMatchObject({ candidates: [{ memoryId: before.id, content: before.content }] });
    expect(JSON.stringify(debug?.trace)).not.toMatch(/redacted/i);
  });

  it("keeps a memory the user edited after the import, and names it", async () => {
    const { owner, before } = await userWithAMemory();
    const importId = await importMerging(owner.id, before.id, "Lives in Lisbon and cycles to work every day");
    const edit = await owner.client.request("PATCH", `/api/memories/${before.id}`, {
      json: { content: "Lives in Lisbon, in Alfama, and cycles to work" },
    });
    expect(edit.status).toBe(200);
    const edited = await memoryOf(before.id);

    const undo = await owner.client.request("DELETE", `/api/imports/${importId}`);
    expect(undo.status).toBe(200);
    expect(undo.json).toMatchObject({
      undone: {
        memoriesRestored: 0,
        memoriesKept: 1,
        kept: [{ id: before.id, title: edited?.title, content: "Lives in Lisbon, in Alfama, and cycles to work" }],
      },
    });
    expect(await memoryOf(before.id)).toEqual(edited);
    expect((await historyOf(before.id)).map((e) => `${e.action} by ${e.actor}`)).toEqual([
      "create by extraction",
      "update by extraction",
      "update by user",
    ]);
  });

  it("keeps a memory a live extraction updated after the import, and one deleted since", async () => {
    const { owner, conversationId, before } = await userWithAMemory();
    const other = await createQueuedPair(
      db(),
      { userId: owner.id, conversationId },
      "My sister is called Ana",
      "Nice name.",
    );
    await runExtraction(testDeps(db()), { extractionId: other.extraction.id }, steps);
    const sister = (await memoriesOf(owner.id)).find((m) => m.id !== before.id);
    if (!sister) throw new Error("no second memory");
    // The import merges into both.
    const importId = await startedImport(db(), owner.id, exported.conversations);
    const model = scriptedModel({
      [CONSOLIDATION_OUTPUT_NAME]: (options) => {
        const target = [before, sister].find((m) => promptText(options).includes(m.id));
        return target
          ? JSON.stringify({
              action: "UPDATE",
              targetId: target.id,
              content: `${target.content}, as imported`,
              title: null,
              reason: "more detail",
            })
          : null;
      },
    });
    await runImport(testDeps(db(), { model }), { importId }, steps);
    expect((await memoryOf(before.id))?.content).toMatch(/as imported$/);
    expect((await memoryOf(sister.id))?.content).toMatch(/as imported$/);

    const live = await createQueuedPair(
      db(),
      { userId: owner.id, conversationId },
      "I live in Lisbon, near the river",
      "Noted.",
    );
    await runExtraction(
      testDeps(db(), { model: mergingInto(() => before.id, "Lives in Lisbon near the river") }),
      { extractionId: live.extraction.id },
      steps,
    );
    expect((await memoryOf(before.id))?.content).toBe("Lives in Lisbon near the river");
    expect((await owner.client.request("DELETE", `/api/memories/${sister.id}`)).status).toBe(200);
    const [liveNow, sisterNow] = [await memoryOf(before.id), await memoryOf(sister.id)];

    const undo = await owner.client.request("DELETE", `/api/imports/${importId}`);
    expect(undo.status).toBe(200);
    const undone = (undo.json as { undone: { memoriesRestored: number; memoriesKept: number; kept: unknown[] } })
      .undone;
    expect(undone.memoriesRestored).toBe(0);
    expect(undone.memoriesKept).toBe(2);
    expect(undone.kept).toEqual(
      expect.arrayContaining([
        { id: before.id, title: liveNow?.title, content: "Lives in Lisbon near the river" },
        { id: sister.id, title: sisterNow?.title, content: sisterNow?.content },
      ]),
    );
    expect(await memoryOf(before.id)).toEqual(liveNow);
    expect(await memoryOf(sister.id)).toEqual(sisterNow);
  });
});
