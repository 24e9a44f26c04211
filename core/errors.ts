/** Below the route layer, throw an `AppError`; any other thrown value is an unexpected 500. */

/** Absence and foreignness give the same 404, `not_found:<resource>`. */
export type Resource =
  | "user"
  | "conversation"
  | "message"
  | "note"
  | "memory"
  | "mail_operation"
  | "access_token"
  | "transcription"
  | "mcp_call"
  | "import"
  | "route";

export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | `forbidden:${string}`
  | `not_found:${Resource}`
  | `conflict:${string}`
  | "length_required"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  /** A limit of this server's own (e.g. uploads in flight): 503 with Retry-After. */
  | `unavailable:${string}`
  /** 502, with a message the user can act on. */
  | `upstream:${string}`
  | "internal";

export type FieldErrors = Record<string, string>;

export interface AppErrorOptions {
  fields?: FieldErrors;
  retryAfter?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.fields = options.fields;
    this.retryAfter = options.retryAfter;
  }

  get status(): number {
    return statusOf(this.code);
  }
}

export function statusOf(code: ErrorCode): number {
  const kind = code.split(":")[0];
  switch (kind) {
    case "bad_request":
      return 400;
    case "unauthorized":
      return 401;
    case "forbidden":
      return 403;
    case "not_found":
      return 404;
    case "conflict":
      return 409;
    case "length_required":
      return 411;
    case "payload_too_large":
      return 413;
    case "unsupported_media_type":
      return 415;
    case "rate_limited":
      return 429;
    case "upstream":
      return 502;
    case "unavailable":
      return 503;
    default:
      return 500;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** Callers cannot tell missing from not yours. */
export function notFound(resource: Resource): AppError {
  const label = resource.charAt(0).toUpperCase() + resource.slice(1);
  return new AppError(`not_found:${resource}`, `${label} not found`);
}

export function badRequest(fields: FieldErrors, message?: string): AppError {
  const first = Object.entries(fields)[0];
  return new AppError("bad_request", message ?? (first ? `${first[0]}: ${first[1]}` : "Invalid request"), { fields });
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldErrors; requestId?: string };
}

/** A session whose user no longer exists is no session (401). */
export function userGoneAsUnauthorized(error: unknown): never {
  if (isAppError(error) && error.code === "not_found:user") {
    throw new AppError("unauthorized", "Your account no longer exists — sign in again");
  }
  throw error;
}
