/**
 * Live chat comes first: the import runner has lanes of its own, so a live extraction never queues behind an import,
 * and each imported exchange waits, before its pick, before it, between its steps and before each of its database
 * statements, while any user's chat turn is in flight.
 */
import { importConfig } from "@/core/config";
import { type Logger, logger } from "@/core/logger";
import type { Db } from "@/db/client";
import { getImportForJob, listRunningImports, listStalledImports } from "@/db/queries/imports";
import type { ExtractionDeps } from "./extraction-job";
import { runAfterResponse } from "./extraction-queue";
import { runImport } from "./import-job";
import { type InngestClient, importRequested, inngest } from "./inngest-client";
import type { JobRunnerKind } from "./runner-kind";
import type { JobSteps } from "./steps";

export interface ImportJob {
  importId: string;
  userId: string;
}

/** A hand-over: the job, and when the import last moved (its start, its resume, its last exchange). */
export interface ImportHandOver extends ImportJob {
  progressAt: Date;
}

export interface ImportDispatcher {
  readonly kind: JobRunnerKind;
  dispatch(job: ImportHandOver): Promise<void>;
}

/**
 * The event id names the import and when it last moved: Inngest drops a second send of one hand-over (a start whose
 * answer was lost, then the sweep's), and a stall after progress is a new event.
 */
export function importEventId({ importId, progressAt }: ImportHandOver): string {
  return `import-${importId}-${progressAt.getTime()}`;
}

export function inngestImportDispatcher(client: InngestClient = inngest): ImportDispatcher {
  return {
    kind: "inngest",
    async dispatch(job) {
      await client.send(
        importRequested.create({ importId: job.importId, userId: job.userId }, { id: importEventId(job) }),
      );
    },
  };
}

const inProcessSteps: JobSteps = { runner: "in-process", run: (_id, fn) => fn(), retryAt: (_n, now) => now };

/** The process's chat turns in flight (lib/chat/in-flight.ts). */
export interface ChatTurns {
  readonly size: number;
  idle(deadline: number): Promise<boolean>;
}

export interface InProcessImportRunnerOptions {
  /**
   * The import's deps, whose database awaits `letChatFirst` before each statement (`Database.yieldingTo`): on PGlite
   * an exchange's statements would otherwise run back to back without giving a request that arrived the event loop.
   */
  deps: (letChatFirst: () => Promise<void>) => Promise<ExtractionDeps>;
  liveIdle: (userId: string) => Promise<void>;
  chatTurns: ChatTurns;
  /** An exchange's waits for chat turns, in all: continuous chat slows an import, never stops it. */
  maxChatWaitMs?: number;
}

export class InProcessImportRunner {
  private readonly running = new Map<string, Promise<void>>();
  private readonly lanes = new Map<string, Promise<void>>();

  constructor(private readonly options: InProcessImportRunnerOptions) {}

  /** Never rejects. */
  run(job: ImportJob): Promise<void> {
    const existing = this.running.get(job.importId);
    if (existing) return existing;
    const previous = this.lanes.get(job.userId) ?? Promise.resolve();
    const run = previous.then(() => this.runToEnd(job));
    this.running.set(job.importId, run);
    this.lanes.set(job.userId, run);
    void run.finally(() => {
      this.running.delete(job.importId);
      if (this.lanes.get(job.userId) === run) this.lanes.delete(job.userId);
    });
    return run;
  }

  async resume(): Promise<number> {
    const deps = await this.options.deps(async () => {});
    const running = await listRunningImports(deps.db);
    for (const job of running) void this.run(job);
    return running.length;
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }

  private async runToEnd(job: ImportJob): Promise<void> {
    const log = logger.child({ importId: job.importId, runner: "in-process" });
    try {
      const { chatTurns, maxChatWaitMs = importConfig.maxChatWaitMs } = this.options;
      let deadline = 0;
      const chatIdle = async () => {
        while (chatTurns.size > 0 && (await chatTurns.idle(deadline))) {
          // A turn that started as the last one settled is waited for too.
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      // The event loop first takes what arrived (a chat request counts itself a turn on arrival), then the turn goes first.
      const deps = await this.options.deps(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        await chatIdle();
      });
      for (;;) {
        const outcome = await runImport(deps, { importId: job.importId }, inProcessSteps, {
          beforePick: async () => {
            deadline = performance.now() + maxChatWaitMs;
            await chatIdle();
          },
          beforeExchange: async (userId) => {
            await chatIdle();
            await this.options.liveIdle(userId);
            // Between exchanges, the event loop serves requests first.
            await new Promise((resolve) => setImmediate(resolve));
          },
          beforeStep: chatIdle,
        });
        if (outcome.status === "continue") continue;
        // A resume that came while this run was stopping found it still running and joined it.
        if (outcome.status === "not-running" && (await getImportForJob(deps.db, job))?.status === "running") continue;
        return;
      }
    } catch (error) {
      log.error({ err: error }, "import run stopped (it resumes at the next start)");
    }
  }
}

export function inProcessImportDispatcher(runner: InProcessImportRunner): ImportDispatcher {
  return {
    kind: "in-process",
    dispatch: async (job) => {
      void runner.run(job);
    },
  };
}

/**
 * Hands the import to its runner once the response is sent (a start, a resume); a failure is logged, and the sweeps
 * hand it over again once it has not moved for importConfig.redispatchAfterMs.
 */
export function dispatchImportAfterResponse(dispatcher: ImportDispatcher, job: ImportHandOver, log: Logger): void {
  runAfterResponse(() =>
    dispatcher
      .dispatch(job)
      .catch((error: unknown) => log.error({ err: error, importId: job.importId }, "could not dispatch an import")),
  );
}

/**
 * The sweeps' hand-over of running imports that have not moved for `afterMs`: a start event Inngest never got, a
 * process that stopped between the commit and the hand-over, a run that stopped on an error. Resolves once each has
 * settled; a failure is logged and the next sweep tries again. Paused, cancelled and done imports are never listed.
 */
export async function dispatchStalledImports(
  db: Db,
  dispatcher: ImportDispatcher,
  { now, afterMs = importConfig.redispatchAfterMs, log = logger }: { now: Date; afterMs?: number; log?: Logger },
): Promise<number> {
  const stalled = await listStalledImports(db, {
    before: new Date(now.getTime() - afterMs),
    limit: importConfig.redispatchBatch,
  });
  await Promise.all(
    stalled.map((job) =>
      dispatcher
        .dispatch(job)
        .catch((error: unknown) =>
          log.error({ err: error, importId: job.importId }, "could not hand over a stalled import"),
        ),
    ),
  );
  return stalled.length;
}
