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

/**
 * SQLSTATEs after which the same transaction, run again, may well succeed: the connection was lost
 * or refused (class 08; 57P01–57P03, a server shutting down or starting), too many connections
 * (53300), or Postgres gave up on this transaction to let another through (40001, 40P01).
 */
const TRANSIENT_SQLSTATES = new Set(["40001", "40P01", "53300", "57P01", "57P02", "57P03"]);
/** Socket errors of a connection lost or refused on the way to the server. */
const TRANSIENT_SOCKET_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT"]);

/** True when `error` (or any error in its `cause` chain) is a transient database error (above). */
export function isTransientDatabaseError(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === "object" && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (TRANSIENT_SQLSTATES.has(code) || code.startsWith("08"))) return true;
    if (typeof code === "string" && TRANSIENT_SOCKET_CODES.has(code)) return true;
    // node-postgres' own error for a connection that closed under a query carries no code.
    if (typeof message === "string" && message.startsWith("Connection terminated")) return true;
  }
  return false;
}

/**
 * Runs `work` (a whole transaction, safe to run again), and again after each delay of `delaysMs`
 * while it fails with a transient database error; any other error, or the last one, is thrown.
 */
export async function retryTransient<T>(work: () => Promise<T>, delaysMs: readonly number[]): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await work();
    } catch (error) {
      const delay = delaysMs[retry];
      if (delay === undefined || !isTransientDatabaseError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
