/** Step results cross a JSON boundary under Inngest, so they must be JSON values. */
import { unwrapQueryError } from "@/db/queries/errors";
import type { JobRunnerKind } from "./runner-kind";

/** A JSON value (Dates, Maps, class instances and `undefined` array items do not survive `step.run`). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

export interface JobSteps {
  readonly runner: JobRunnerKind;
  run<T extends Json>(id: string, fn: () => Promise<T>): Promise<T>;
  /** null when the runner schedules retries itself (Inngest). */
  retryAt(failedAttempts: number, now: Date): Date | null;
}

export class FinalJobError extends Error {
  override readonly name = "FinalJobError";
}

const MAX_ERROR_CHARS = 1000;

/** Drizzle's wrapper repeats the SQL and every parameter (1536-float vectors included): its cause is what happened. */
export function errorMessage(error: unknown): string {
  const root = unwrapQueryError(error);
  const text = root instanceof Error ? root.message || root.name : String(root);
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}
