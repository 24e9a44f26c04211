/**
 * runAfterResponse: work that must not delay the answer. Inside a Next request scope it is handed
 * to `after()` from next/server (Next runs it once the response is sent and keeps the request's
 * lifetime open until it settles); anywhere else — scripts, tests, the in-process HTTP test
 * harness — it runs as a detached promise. Either way a failure is logged, never thrown at the
 * caller.
 */
import { after } from "next/server";
import { logger } from "@/core/logger";

const pending = new Set<Promise<void>>();

export function runAfterResponse(task: () => Promise<unknown>): void {
  const guarded = () => {
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
  };
  try {
    // Throws outside a request scope ("`after` was called outside a request scope").
    after(guarded);
  } catch {
    void guarded();
  }
}

/** Resolves once every task handed to runAfterResponse so far (and any they start meanwhile) has settled. */
export async function afterResponseIdle(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
