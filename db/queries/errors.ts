import { DrizzleQueryError } from "drizzle-orm";

/** drizzle's wrapper repeats the SQL and every parameter (1536-float vectors included); the cause is what happened. */
export function unwrapQueryError(error: unknown): unknown {
  return error instanceof DrizzleQueryError && error.cause instanceof Error ? error.cause : error;
}

export function queryErrorMessage(error: unknown): string {
  const root = unwrapQueryError(error);
  return root instanceof Error ? root.message : String(root);
}

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

/** A rerun of the same transaction may succeed: serialization/deadlock victims, too many connections, shutdown. */
const TRANSIENT_SQLSTATES = new Set(["40001", "40P01", "53300", "57P01", "57P02", "57P03"]);
const TRANSIENT_SOCKET_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT"]);

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

/** `work` must be a whole transaction, safe to run again. */
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
