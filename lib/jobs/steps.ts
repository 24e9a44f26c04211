/**
 * The step contract between a job body and its runner. A body is a plain async function that does
 * its work in `steps.run(id, fn)` calls: under Inngest, `run` is `step.run` (memoized, retried by
 * Inngest); under the in-process runner it calls `fn` directly and the runner re-runs the whole
 * body on a retry. Step results cross a JSON boundary under Inngest, so they must be JSON values.
 */
import { unwrapQueryError } from "@/db/queries/errors";
import type { JobRunnerKind } from "./runner-kind";

/** A JSON value (Dates, Maps, class instances and `undefined` array items do not survive `step.run`). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

export interface JobSteps {
  readonly runner: JobRunnerKind;
  run<T extends Json>(id: string, fn: () => Promise<T>): Promise<T>;
  /**
   * When the next automatic attempt is due after `failedAttempts` failed attempts; null when the
   * runner schedules retries itself (Inngest's backoff is Inngest's).
   */
  retryAt(failedAttempts: number, now: Date): Date | null;
}

/**
 * Thrown out of a step when the job must not be retried: its attempts are spent, or its row is no
 * longer runnable. The Inngest adapter turns it into a NonRetriableError.
 */
export class FinalJobError extends Error {
  override readonly name = "FinalJobError";
}

const MAX_ERROR_CHARS = 1000;

/**
 * The message worth storing and showing for an error. Drizzle wraps driver errors in one that
 * repeats the SQL and every parameter (1536-float vectors included): its cause is what happened.
 */
export function errorMessage(error: unknown): string {
  const root = unwrapQueryError(error);
  const text = root instanceof Error ? root.message || root.name : String(root);
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}
