/**
 * What every answer of the app's edge shares — the request id and the JSON error shape — without
 * anything heavier (no database, no models): lib/api/route.ts and proxy.ts both answer with these.
 */
import { randomUUID } from "node:crypto";
import type { AppError, ErrorBody } from "@/core/errors";

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The request's id, for its log lines, its error bodies and its `x-request-id` response header:
 * Vercel's own (`x-vercel-id`, set by the platform, so a log line matches Vercel's request log),
 * else a well-formed incoming `x-request-id` (a proxy's or a client's), else a new one.
 */
export function requestIdOf(request: Request): string {
  for (const header of ["x-vercel-id", "x-request-id"]) {
    const incoming = request.headers.get(header);
    if (incoming && REQUEST_ID.test(incoming)) return incoming;
  }
  return randomUUID();
}

/** `{ error: { code, message, fields?, requestId } }` with the error's status, `x-request-id` and no caching. */
export function errorResponse(error: AppError, requestId: string): Response {
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
      requestId,
    },
  };
  const headers = new Headers({ "x-request-id": requestId, "cache-control": "no-store" });
  if (error.retryAfter !== undefined) headers.set("retry-after", String(error.retryAfter));
  return Response.json(body, { status: error.status, headers });
}
