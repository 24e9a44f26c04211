/**
 * The in-process runner: runs the extraction job (lib/jobs/extraction-job) inside this server
 * process when no Inngest server is configured — with Inngest's retry count, exponential backoff,
 * and one job at a time per user (Inngest's `concurrency: { key: userId, limit: 1 }`).
 *
 * Durability comes from the row, not from memory: every attempt's outcome is written to
 * memory_extractions before anything else happens, and `resume()` (called once per server start,
 * see instrumentation.ts) picks up whatever a stopped process left queued or running. Its limits:
 * one process — two processes resuming the same database would both run a job (the store step's
 * guard still keeps it to one memory per pair) — and retry timers live in memory, so a retry due
 * while the server is down runs at the next start.
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

/** The delay before the retry that follows `failedAttempts` failures: base · 2^(n−1), capped. */
export function retryDelayMs(failedAttempts: number, backoff: Backoff = extractionConfig): number {
  return Math.min(backoff.backoffMaxMs, backoff.backoffBaseMs * 2 ** Math.max(0, failedAttempts - 1));
}

/** The in-process runner's steps: `run` just runs; a retry re-runs the whole body. */
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
  /** Per user: the tail of the chain of that user's jobs. */
  private readonly lanes = new Map<string, Promise<void>>();
  /** Jobs waiting in a lane or running, by extraction id. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; job: ExtractionJob }>();
  private readonly backoff: Backoff;

  constructor(private readonly options: InProcessRunnerOptions) {
    this.backoff = options.backoff ?? extractionConfig;
  }

  /**
   * Runs the job after the user's earlier jobs; resolves when this attempt has ended (a retry,
   * if one is due, is scheduled by then). Never rejects. Dispatching a job that is already
   * waiting or running returns that run; a scheduled retry is brought forward.
   */
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

  /**
   * What a start does: every queued or running row is run again — a `running` row was interrupted
   * by the stop, which counts as a failed attempt — at its next_attempt_at, or now. One indexed
   * query when nothing is pending. Returns how many unfinished rows it found.
   */
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

  /** Resolves when the user has no job waiting or running here (the import runner waits for it). */
  async laneIdle(userId: string): Promise<void> {
    for (let lane = this.lanes.get(userId); lane; lane = this.lanes.get(userId)) await lane;
  }

  /** Resolves when nothing is waiting, running or scheduled (tests, graceful shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.timers.size > 0) {
      await Promise.race([...this.inFlight.values(), new Promise((resolve) => setTimeout(resolve, 5))]);
    }
  }

  /** Runs the job at `dueAt` (null or past: on the next tick, after the current attempt has let go of it). */
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
