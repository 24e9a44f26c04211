/**
 * An import whose job was never handed over (the start's event lost after the row committed, or the process gone
 * in between) is handed over again by the sweeps, on both databases: to Inngest (the stand-in of
 * tests/production/fake-inngest.ts, which refuses what Inngest refuses and drops an event id it has seen) with an
 * event id per stall, and to the in-process runner. Paused, cancelled and done imports are never handed over.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { importConfig } from "@/core/config";
import {
  addImportBatch,
  changeImportState,
  createImport,
  getImportForJob,
  listStalledImports,
  startImport,
} from "@/db/queries/imports";
import { memoryExtractions } from "@/db/schema";
import { readExport } from "@/lib/import/read-export";
import { DB_KINDS } from "@/tests/db";
import { createUser, testDeps } from "@/tests/fixtures/jobs";
import { type FakeInngest, startFakeInngest } from "@/tests/production/fake-inngest";
import { useTestDatabase } from "@/tests/test-database";
import { TurnsInFlight } from "../chat/in-flight";
import { runImport } from "./import-job";
import {
  dispatchStalledImports,
  InProcessImportRunner,
  importEventId,
  inngestImportDispatcher,
  inProcessImportDispatcher,
} from "./import-runner";
import { createInngestClient } from "./inngest-client";
import type { JobSteps } from "./steps";

const exported = readExport(readFileSync(join(__dirname, "../import/fixtures/chatgpt-conversations.json")));
const steps: JobSteps = { runner: "in-process", run: (_id, fn) => fn(), retryAt: (_n, now) => now };
const EVENT_KEY = "import-redispatch-event-key";
const IMPORT_EVENT = "lifeline/import.requested";
const silent = { error: vi.fn() };

describe.each(DB_KINDS)("handing stalled imports over again on %s", (kind) => {
  const database = useTestDatabase(kind);
  const db = () => database.db;
  let inngest: FakeInngest;

  beforeAll(async () => {
    inngest = await startFakeInngest({ signingKey: "unused", functionIds: {}, appUrl: () => "", eventKey: EVENT_KEY });
  });
  afterAll(async () => {
    await inngest?.close();
  });

  /** The client as a deployment makes it: its event key read from the environment. */
  function inngestClient(eventKey = EVENT_KEY) {
    const previous = process.env.INNGEST_EVENT_KEY;
    process.env.INNGEST_EVENT_KEY = eventKey;
    try {
      return createInngestClient({ baseUrl: inngest.url });
    } finally {
      if (previous === undefined) delete process.env.INNGEST_EVENT_KEY;
      else process.env.INNGEST_EVENT_KEY = previous;
    }
  }
  const accepted = (importId: string) =>
    inngest.events.filter((e) => e.name === IMPORT_EVENT && (e.data as { importId: string }).importId === importId);
  const dropped = (importId: string) =>
    inngest.duplicates.filter((e) => (e.data as { importId: string }).importId === importId);
  const stalledSince = (row: { updatedAt: Date }) => new Date(row.updatedAt.getTime() + importConfig.redispatchAfterMs);

  /** Started: the row says running, and no runner was told. */
  async function startedImport(userId: string) {
    const row = await createImport(db(), { userId, source: "chatgpt", fileName: "export.zip" });
    await addImportBatch(db(), { userId, importId: row.id, conversations: exported.conversations, runner: "inngest" });
    const { row: started } = await startImport(db(), { userId, importId: row.id, now: new Date() });
    return started;
  }

  it("sends a running import that never moved once a stall, with an event id Inngest drops when it comes again", async () => {
    const userId = await createUser(db());
    const row = await startedImport(userId);
    const dispatcher = inngestImportDispatcher(inngestClient());

    const early = new Date(stalledSince(row).getTime() - 1);
    expect(await dispatchStalledImports(db(), dispatcher, { now: early, log: silent as never })).toBe(0);
    expect(accepted(row.id)).toEqual([]);

    const late = new Date(stalledSince(row).getTime() + 1);
    expect(await dispatchStalledImports(db(), dispatcher, { now: late })).toBeGreaterThanOrEqual(1);
    const firstId = importEventId({ importId: row.id, userId, progressAt: row.updatedAt });
    expect(accepted(row.id)).toEqual([
      expect.objectContaining({ name: IMPORT_EVENT, id: firstId, data: { importId: row.id, userId } }),
    ]);
    // The next sweep sends it again; Inngest drops it: one run.
    await dispatchStalledImports(db(), dispatcher, { now: late });
    expect(accepted(row.id)).toHaveLength(1);
    expect(dropped(row.id)).toEqual([expect.objectContaining({ id: firstId })]);

    // An exchange read is progress: a later stall is a new hand-over.
    expect(await runImport(testDeps(db()), { importId: row.id }, steps, { pairsPerRun: 1 })).toMatchObject({
      status: "continue",
      ran: 1,
    });
    const [moved] = await db()
      .select({ at: memoryExtractions.updatedAt })
      .from(memoryExtractions)
      .where(eq(memoryExtractions.importId, row.id))
      .orderBy(desc(memoryExtractions.updatedAt))
      .limit(1);
    const stalled = await listStalledImports(db(), { before: new Date(Date.now() + 1_000), limit: 100 });
    expect(stalled.find((s) => s.importId === row.id)).toEqual({ importId: row.id, userId, progressAt: moved?.at });
    await dispatchStalledImports(db(), dispatcher, { now: new Date(Date.now() + importConfig.redispatchAfterMs) });
    expect(accepted(row.id).map((e) => e.id)).toEqual([
      firstId,
      importEventId({ importId: row.id, userId, progressAt: moved?.at ?? new Date() }),
    ]);
  });

  it("the start's own event and the sweep's are one hand-over: Inngest runs it once", async () => {
    const userId = await createUser(db());
    const row = await startedImport(userId);
    const dispatcher = inngestImportDispatcher(inngestClient());
    // As the start route hands it over.
    await dispatcher.dispatch({ importId: row.id, userId, progressAt: row.updatedAt });
    await dispatchStalledImports(db(), dispatcher, { now: new Date(stalledSince(row).getTime() + 1) });
    expect(accepted(row.id)).toHaveLength(1);
    expect(dropped(row.id)).toHaveLength(1);
  });

  it("never hands over a paused, cancelled or done import", async () => {
    const userId = await createUser(db());
    const paused = await startedImport(userId);
    await changeImportState(db(), { userId, importId: paused.id, action: "pause", now: new Date() });
    const cancelled = await startedImport(userId);
    await changeImportState(db(), { userId, importId: cancelled.id, action: "cancel", now: new Date() });
    const done = await startedImport(userId);
    expect(await runImport(testDeps(db()), { importId: done.id }, steps)).toMatchObject({ status: "done" });
    const receiving = await createImport(db(), { userId, source: "chatgpt", fileName: "unsent.zip" });

    await dispatchStalledImports(db(), inngestImportDispatcher(inngestClient()), {
      now: new Date(Date.now() + 2 * importConfig.redispatchAfterMs),
    });
    for (const id of [paused.id, cancelled.id, done.id, receiving.id]) expect(accepted(id)).toEqual([]);
  });

  it("a send Inngest refuses is logged, and the next sweep tries again", async () => {
    const userId = await createUser(db());
    const row = await startedImport(userId);
    const log = { error: vi.fn() };
    const now = new Date(stalledSince(row).getTime() + 1);
    await dispatchStalledImports(db(), inngestImportDispatcher(inngestClient("not-the-key")), {
      now,
      log: log as never,
    });
    expect(accepted(row.id)).toEqual([]);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ importId: row.id }),
      "could not hand over a stalled import",
    );
    await dispatchStalledImports(db(), inngestImportDispatcher(inngestClient()), { now });
    expect(accepted(row.id)).toHaveLength(1);
  });

  it("the in-process runner takes a stalled import up again and runs it to the end", async () => {
    const userId = await createUser(db());
    const row = await startedImport(userId);
    const runner = new InProcessImportRunner({
      deps: async () => testDeps(db()),
      liveIdle: async () => {},
      chatTurns: new TurnsInFlight(),
    });
    await dispatchStalledImports(db(), inProcessImportDispatcher(runner), {
      now: new Date(Date.now() + importConfig.redispatchAfterMs),
    });
    await runner.idle();
    expect((await getImportForJob(db(), { importId: row.id }))?.status).toBe("done");
  });
});
