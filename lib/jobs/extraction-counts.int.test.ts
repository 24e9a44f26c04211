/**
 * What an answer's extraction says it did, on both databases: the memories it updated in place are counted apart
 * from those it created, alike in the transcript (SQL) and in GET /api/messages/:id/extraction (the view), so the
 * chat says "Updated 1 memory" rather than claim a new one.
 */
import { describe, expect, it } from "vitest";
import { listTranscriptRows } from "@/db/queries/transcript";
import { CONSOLIDATION_OUTPUT_NAME } from "@/lib/memory/extraction/consolidation-schema";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createQueuedPair, createUser, scriptedModel, testDeps } from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";
import { runExtraction } from "./extraction-job";
import { getMessageExtraction } from "./extraction-view";
import type { JobSteps } from "./steps";

const steps: JobSteps = { runner: "in-process", run: (_id, fn) => fn(), retryAt: (_n, now) => now };

describe.each(DB_KINDS)("an extraction's created and updated memories on %s", (kind) => {
  const database = useTestDatabase(kind);
  const db = () => database.db;

  it("counts an update in place apart from a new memory, in the transcript and in the extraction's view", async () => {
    const userId = await createUser(db());
    const conversationId = await createConversation(db(), userId);
    const owner = { userId, conversationId };
    const said = await createQueuedPair(db(), owner, "My sister's name is Maya.");
    await runExtraction(testDeps(db()), { extractionId: said.extraction.id }, steps);
    const restated = await createQueuedPair(db(), owner, "My sister Maya is a nurse in Porto.");
    const updating = scriptedModel({
      [CONSOLIDATION_OUTPUT_NAME]: (options) => {
        const target = JSON.stringify(options.prompt).match(
          /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/,
        );
        return target
          ? JSON.stringify({
              action: "UPDATE",
              targetId: target[0],
              content: "Sister Maya is a nurse in Porto",
              title: null,
              reason: "more detail",
            })
          : null;
      },
    });
    await runExtraction(testDeps(db(), { model: updating }), { extractionId: restated.extraction.id }, steps);

    const first = await getMessageExtraction(db(), { userId, assistantMessageId: said.assistantMessageId });
    const second = await getMessageExtraction(db(), { userId, assistantMessageId: restated.assistantMessageId });
    expect(first).toMatchObject({ status: "succeeded", memoriesUpdated: 0 });
    expect(first.memoryIds).toHaveLength(1);
    expect(second).toMatchObject({ status: "succeeded", memoryIds: first.memoryIds, memoriesUpdated: 1 });

    const { rows } = await listTranscriptRows(db(), { userId, conversationId });
    const extractionOf = (id: string) => rows.find((row) => row.id === id)?.extraction;
    expect(extractionOf(said.assistantMessageId)).toMatchObject({ memoryIds: first.memoryIds, memoriesUpdated: 0 });
    expect(extractionOf(restated.assistantMessageId)).toMatchObject({ memoryIds: first.memoryIds, memoriesUpdated: 1 });
  });
});
