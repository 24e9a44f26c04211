/**
 * runAfterResponse: work that must not delay the answer. In the app it is handed to `after()` from
 * next/server: Next runs it once the response is sent and keeps the request's lifetime (and a
 * serverless function) open until it settles. A process that serves no Next request — a script,
 * or the test harness that calls route handlers over plain node:http — chooses the detached
 * scheduler instead, at its set-up (`setBackgroundScheduler(detachedScheduler)`). Either way a
 * failing task is logged, never thrown at the caller.
 *
 * Only code that runs inside a request calls it: work started outside any request — the start-up
 * and periodic sweeps (lib/runtime.ts), the Inngest `sweeps` function — is already off the
 * request path and awaits its own work, since after() there has no request scope and refuses
 * ("`after` was called outside a request scope").
 */
import { after } from "next/server";
import { logger } from "@/core/logger";

export type BackgroundScheduler = (task: () => Promise<void>) => void;

/** Next's after(): the task runs once the current request's response is sent. */
export const nextAfterScheduler: BackgroundScheduler = (task) => after(task);

/** A detached promise, started now: for processes with no request scope (scripts, test harnesses). */
export const detachedScheduler: BackgroundScheduler = (task) => void task();

let scheduler: BackgroundScheduler = nextAfterScheduler;

/** Chooses where background tasks run in this process (default: Next's after()). */
export function setBackgroundScheduler(next: BackgroundScheduler): void {
  scheduler = next;
}

const pending = new Set<Promise<void>>();

export function runAfterResponse(task: () => Promise<unknown>): void {
  scheduler(() => {
    const run = (async () => {
      try {
        await task();
      } catch (error) {
        logger.error({ err: error }, "background task failed");
      }
    })();
    pending.add(run);
    void run.finally(() => pending.delete(run));
    return run;
  });
}

/** Resolves once every task handed to runAfterResponse so far (and any they start meanwhile) has settled. */
export async function afterResponseIdle(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
