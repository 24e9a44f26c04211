/**
 * Mirrors Inngest's retries and per-user concurrency of 1. Durability comes from the row: each
 * attempt's outcome is written before anything else, and `resume()` picks up what a stopped process
 * left. Limits: two processes resuming one database would both run a job (the store step's guard
 * keeps one memory per pair), and a retry due while the server is down runs at the next start.
 */

import { extractionConfig } from "@/core/config";
import { logger } from "@/core/logger";
import { getExtraction, listResumableExtractions, recordFailedAttempt } from "@/db/queries/extractions";
import { type ExtractionDeps, MAX_EXTRACTION_ATTEMPTS, runExtraction } from "./extraction-job";
import type { JobSteps } from "./steps";

export interface ExtractionJob {
  extractionId: string;
  userId: string;
}

export interface Backoff {
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** base · 2^(n−1), capped. */
export function retryDelayMs(failedAttempts: number, backoff: Backoff = extractionConfig): number {
  return Math.min(backoff.backoffMaxMs, backoff.backoffBaseMs * 2 ** Math.max(0, failedAttempts - 1));
}

/** A retry re-runs the whole body. */
export function inProcessSteps(backoff: Backoff = extractionConfig): JobSteps {
  return {
    runner: "in-process",
    run: (_id, fn) => fn(),
    retryAt: (failedAttempts, now) => new Date(now.getTime() + retryDelayMs(failedAttempts, backoff)),
  };
}

export const INTERRUPTED_ERROR = "interrupted: the server stopped during this attempt";

export interface InProcessRunnerOptions {
  deps: () => Promise<ExtractionDeps>;
  backoff?: Backoff;
}

export class InProcessRunner {
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; job: ExtractionJob }>();
  private readonly backoff: Backoff;

  constructor(private readonly options: InProcessRunnerOptions) {
    this.backoff = options.backoff ?? extractionConfig;
  }

  /** Never rejects. Dispatching a job already waiting or running returns that run; a scheduled retry is brought forward. */
  run(job: ExtractionJob): Promise<void> {
    const existing = this.inFlight.get(job.extractionId);
    if (existing) return existing;
    this.cancelTimer(job.extractionId);

    const previous = this.lanes.get(job.userId) ?? Promise.resolve();
    const attempt = previous.then(() => this.attempt(job));
    this.inFlight.set(job.extractionId, attempt);
    this.lanes.set(job.userId, attempt);
    void attempt.finally(() => {
      this.inFlight.delete(job.extractionId);
      if (this.lanes.get(job.userId) === attempt) this.lanes.delete(job.userId);
    });
    return attempt;
  }

  /** A `running` row was interrupted by the stop, which counts as a failed attempt. */
  async resume(): Promise<number> {
    const deps = await this.options.deps();
    const pending = await listResumableExtractions(deps.db);
    for (const row of pending) {
      const job = { extractionId: row.id, userId: row.userId };
      if (this.inFlight.has(row.id) || this.timers.has(row.id)) continue;
      let dueAt = row.nextAttemptAt;
      if (row.status === "running") {
        const now = deps.now();
        const recorded = await recordFailedAttempt(deps.db, {
          extractionId: row.id,
          error: INTERRUPTED_ERROR,
          // The interrupted attempt's calls went with its process: it recorded none.
          modelInput: [],
          maxAttempts: MAX_EXTRACTION_ATTEMPTS,
          retryAt: () => now,
          now,
        });
        if (recorded?.status !== "queued") continue;
        dueAt = recorded.nextAttemptAt;
      }
      this.runAt(job, dueAt);
    }
    return pending.length;
  }

  async laneIdle(userId: string): Promise<void> {
    for (let lane = this.lanes.get(userId); lane; lane = this.lanes.get(userId)) await lane;
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.timers.size > 0) {
      await Promise.race([...this.inFlight.values(), new Promise((resolve) => setTimeout(resolve, 5))]);
    }
  }

  /** null or past: on the next tick, after the current attempt has let go of it. */
  private runAt(job: ExtractionJob, dueAt: Date | null): void {
    this.cancelTimer(job.extractionId);
    const delay = Math.max(0, dueAt ? dueAt.getTime() - Date.now() : 0);
    const timer = setTimeout(() => {
      this.timers.delete(job.extractionId);
      void this.run(job);
    }, delay);
    // A pending retry never keeps a script alive: the row stays queued and a later start resumes it.
    timer.unref();
    this.timers.set(job.extractionId, { timer, job });
  }

  private cancelTimer(extractionId: string): void {
    const scheduled = this.timers.get(extractionId);
    if (!scheduled) return;
    clearTimeout(scheduled.timer);
    this.timers.delete(extractionId);
  }

  private async attempt(job: ExtractionJob): Promise<void> {
    const log = logger.child({ extractionId: job.extractionId, runner: "in-process" });
    let deps: ExtractionDeps;
    try {
      deps = await this.options.deps();
    } catch (error) {
      log.error(
        { err: error },
        "extraction not started: its dependencies are unavailable (it resumes at the next start)",
      );
      return;
    }
    try {
      await runExtraction(deps, { extractionId: job.extractionId }, inProcessSteps(this.backoff));
    } catch (error) {
      // The body has recorded the failure on the row; the row says whether a retry is due.
      const row = await getExtraction(deps.db, { extractionId: job.extractionId }).catch(() => null);
      if (row?.status === "queued") {
        this.runAt(job, row.nextAttemptAt);
      } else if (row?.status !== "failed") {
        log.error({ err: error, status: row?.status }, "extraction attempt failed and could not be recorded");
      }
    }
  }
}
