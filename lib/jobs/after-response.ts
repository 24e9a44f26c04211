/**
 * `after()` keeps a serverless function open until the task settles. Only code inside a request may
 * call it: outside one, after() refuses, so scripts and the test harness use the detached scheduler.
 */
import { after } from "next/server";
import { logger } from "@/core/logger";

export type BackgroundScheduler = (task: () => Promise<void>) => void;

export const nextAfterScheduler: BackgroundScheduler = (task) => after(task);

export const detachedScheduler: BackgroundScheduler = (task) => void task();

let scheduler: BackgroundScheduler = nextAfterScheduler;

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
