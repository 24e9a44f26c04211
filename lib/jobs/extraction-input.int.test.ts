/**
 * What the extraction model received is recorded as it received it (docs/extraction.md#what-the-model-received):
 * a model that keeps every call's options is compared with `memory_extractions.model_input`, for a live exchange
 * (the extraction call and consolidation's), a failed attempt then its retry, and an import's exchanges, on
 * both databases.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deleteMemory } from "@/db/queries/memories";
import { memoryExtractions } from "@/db/schema";
import type { CapturedCall } from "@/lib/ai/capture";
import { readExport } from "@/lib/import/read-export";
import { CONSOLIDATION_OUTPUT_NAME } from "@/lib/memory/extraction/consolidation-schema";
import { EXTRACTION_OUTPUT_NAME } from "@/lib/memory/extraction/schema";
import { offlineLanguageModel } from "@/lib/offline/model";
import { DB_KINDS } from "@/tests/db";
import { createConversation, createQueuedPair, createUser, startedImport, testDeps } from "@/tests/fixtures/jobs";
import { useTestDatabase } from "@/tests/test-database";
import { runExtraction } from "./extraction-job";
import { runImport } from "./import-job";
import type { JobSteps } from "./steps";

const steps: JobSteps = { runner: "in-process", run: (_id, fn) => fn(), retryAt: (_n, now) => now };
const exported = readExport(readFileSync(join(__dirname, "../import/fixtures/chatgpt-conversations.json")));

/** The offline model, keeping what each call received (a failing call included). */
function receivingModel(fail?: (options: LanguageModelV4CallOptions) => boolean) {
  const received: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      received.push(options);
      if (fail?.(options)) throw new Error("the model is unavailable");
      return offlineLanguageModel.doGenerate(options);
    },
  });
  return { model, received };
}

/** As JSON carries it (the abort signal is a live object, never part of the input), keys in one order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, item]) => key !== "abortSignal" && item !== undefined)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, item]) => [key, canonical(item)]),
    );
  }
  return value;
}
const asReceived = (options: readonly LanguageModelV4CallOptions[]) =>
  options.map((o) => canonical(JSON.parse(JSON.stringify({ ...o, abortSignal: undefined }))));
const asRecorded = (calls: readonly unknown[]) => (calls as CapturedCall[]).map((call) => canonical(call.params));
const taskOf = (options: LanguageModelV4CallOptions) =>
  options.responseFormat?.type === "json" ? options.responseFormat.name : undefined;

describe.each(DB_KINDS)("the extraction's recorded model input on %s", (kind) => {
  const database = useTestDatabase(kind);
  const db = () => database.db;

  async function row(extractionId: string) {
    const [found] = await db().select().from(memoryExtractions).where(eq(memoryExtractions.id, extractionId));
    if (!found) throw new Error("no extraction row");
    return found;
  }

  /** A fact stored by a first exchange, and a second exchange, queued, that says it again. */
  async function storedThenRestated() {
    const userId = await createUser(db());
    const owner = { userId, conversationId: await createConversation(db(), userId) };
    const said = await createQueuedPair(db(), owner, "My sister's name is Maya.");
    await runExtraction(testDeps(db()), { extractionId: said.extraction.id }, steps);
    const restated = await createQueuedPair(db(), owner, "Just so you know, my sister's name is Maya.");
    return { userId, said, restated };
  }

  it("is every call the model received, in order: the extraction call, then consolidation's against the near memory", async () => {
    const userId = await createUser(db());
    const owner = { userId, conversationId: await createConversation(db(), userId) };
    const first = receivingModel();
    const said = await createQueuedPair(db(), owner, "My sister's name is Maya.");
    await runExtraction(testDeps(db(), { model: first.model }), { extractionId: said.extraction.id }, steps);
    const firstRow = await row(said.extraction.id);
    expect(first.received.map(taskOf)).toEqual([EXTRACTION_OUTPUT_NAME]);
    expect(asRecorded(firstRow.modelInput)).toEqual(asReceived(first.received));

    const again = receivingModel();
    const restated = await createQueuedPair(db(), owner, "Just so you know, my sister's name is Maya.");
    await runExtraction(testDeps(db(), { model: again.model }), { extractionId: restated.extraction.id }, steps);
    const recorded = await row(restated.extraction.id);
    expect(recorded.status).toBe("succeeded");
    expect(again.received.map(taskOf)).toEqual([EXTRACTION_OUTPUT_NAME, CONSOLIDATION_OUTPUT_NAME]);
    expect(asRecorded(recorded.modelInput)).toEqual(asReceived(again.received));
    expect(recorded.modelInput).toMatchObject([
      { type: "generate", provider: "mock-provider", modelId: "mock-model-id" },
      { type: "generate", provider: "mock-provider", modelId: "mock-model-id" },
    ]);
    // The consolidation call carried the stored memory's text, as its decision's near list says.
    const consolidation = JSON.stringify(recorded.modelInput[1]);
    expect(consolidation).toContain(firstRow.memoryIds[0]);
    expect(consolidation).toContain("Sister's name is Maya");
  });

  it("a failed attempt keeps its calls, the failing one last, until the retry's calls replace them", async () => {
    const { restated } = await storedThenRestated();
    const failing = receivingModel((options) => taskOf(options) === CONSOLIDATION_OUTPUT_NAME);
    await expect(
      runExtraction(testDeps(db(), { model: failing.model }), { extractionId: restated.extraction.id }, steps),
    ).rejects.toThrow("the model is unavailable");
    const failed = await row(restated.extraction.id);
    expect(failed).toMatchObject({ status: "queued", attempts: 1 });
    expect(failed.lastError).toMatch(/^consolidate: /);
    expect(failing.received.map(taskOf)).toEqual([EXTRACTION_OUTPUT_NAME, CONSOLIDATION_OUTPUT_NAME]);
    expect(asRecorded(failed.modelInput)).toEqual(asReceived(failing.received));

    const retry = receivingModel();
    await runExtraction(testDeps(db(), { model: retry.model }), { extractionId: restated.extraction.id }, steps);
    const succeeded = await row(restated.extraction.id);
    expect(succeeded).toMatchObject({ status: "succeeded", attempts: 2, lastError: null });
    expect(asRecorded(succeeded.modelInput)).toEqual(asReceived(retry.received));
    expect(succeeded.modelInput).toHaveLength(2);
  });

  it("a failed attempt's calls lose a near memory deleted past its window before they are written", async () => {
    const { userId, said, restated } = await storedThenRestated();
    const [maya] = (await row(said.extraction.id)).memoryIds;

    // The memory goes ("delete now") while the consolidation call is on its way; the call then fails.
    const failing = receivingModel((options) => taskOf(options) === CONSOLIDATION_OUTPUT_NAME);
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        if (taskOf(options) === CONSOLIDATION_OUTPUT_NAME) {
          await deleteMemory(db(), { userId, memoryId: maya ?? "" }, { now: true });
        }
        return failing.model.doGenerate(options);
      },
    });
    await expect(
      runExtraction(testDeps(db(), { model }), { extractionId: restated.extraction.id }, steps),
    ).rejects.toThrow();
    const failed = await row(restated.extraction.id);
    expect(failed.modelInput).toHaveLength(2);
    // Sent with the memory's text; recorded with its id alone, in the prompt's block and the hand-off.
    const nearOf = (call: unknown) => {
      const { params } = call as CapturedCall;
      const prompt = params.prompt as { role: string; content: { text: string }[] }[];
      const text = prompt.find((m) => m.role === "user")?.content[0]?.text ?? "";
      const block = text.slice(text.indexOf("<existing_memories>\n") + 20, text.indexOf("\n</existing_memories>"));
      const handoff = (params.providerOptions as { lifeline: { input: { existing: unknown[] } } }).lifeline.input;
      return { block: JSON.parse(block) as unknown[], handoff: handoff.existing };
    };
    const sent = { id: maya, content: "Sister's name is Maya" };
    expect(nearOf({ params: failing.received[1] })).toMatchObject({
      block: [sent],
      handoff: [sent],
    });
    const kept = { id: maya, title: null, content: "[deleted memory]" };
    expect(nearOf(failed.modelInput[1])).toMatchObject({ block: [kept], handoff: [kept] });
  });

  it("a run Inngest memoised before calls were recorded (a bare result) still stores, with the calls it made", async () => {
    const { restated } = await storedThenRestated();
    const replay: JobSteps = {
      ...steps,
      run: async (id, fn) => {
        const result = await fn();
        return (id === "extract" ? (result as { candidates: never }).candidates : result) as never;
      },
    };
    const model = receivingModel();
    await runExtraction(testDeps(db(), { model: model.model }), { extractionId: restated.extraction.id }, replay);
    const stored = await row(restated.extraction.id);
    expect(stored.status).toBe("succeeded");
    expect(asRecorded(stored.modelInput)).toEqual(asReceived(model.received.slice(1)));
  });

  it("an import records each exchange's calls as a live exchange does", async () => {
    const userId = await createUser(db());
    const importId = await startedImport(db(), userId, exported.conversations);
    const model = receivingModel();
    expect(await runImport(testDeps(db(), { model: model.model }), { importId }, steps)).toMatchObject({
      status: "done",
      ran: 3,
    });
    const rows = await db()
      .select()
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, importId))
      .orderBy(asc(memoryExtractions.finishedAt));
    expect(rows.map((r) => r.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    // One exchange after another: their calls, in the order the rows finished, are every call received.
    expect(rows.flatMap((r) => asRecorded(r.modelInput))).toEqual(asReceived(model.received));
    expect(rows.every((r) => r.modelInput.length >= 1)).toBe(true);
  });
});
