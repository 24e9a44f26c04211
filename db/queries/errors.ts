/** Recognising Postgres errors through drizzle's wrappers, on either driver (pg and PGlite). */
import { DrizzleQueryError } from "drizzle-orm";

/**
 * The error worth showing: drizzle wraps driver errors in one that repeats the SQL and every
 * parameter (1536-float vectors included); its cause is what happened.
 */
export function unwrapQueryError(error: unknown): unknown {
  return error instanceof DrizzleQueryError && error.cause instanceof Error ? error.cause : error;
}

/** The message of what happened (unwrapQueryError), for a trace or a log line. */
export function queryErrorMessage(error: unknown): string {
  const root = unwrapQueryError(error);
  return root instanceof Error ? root.message : String(root);
}

/** True when `error` (or any error in its `cause` chain) is a unique violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === "object" && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, constraint: name } = e as { code?: unknown; constraint?: unknown };
    if (code === "23505") return constraint === undefined || name === constraint;
  }
  return false;
}
