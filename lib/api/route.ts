/**
 * The one way to write an API route handler.
 *
 *   export const POST = route(
 *     { params: idParams, body: noteCreateBody, status: 201 },
 *     async ({ db, userId, params, body }) => ({ note: await createNote(db, { userId, messageId: params.id, content: body.content }) }),
 *   );
 *
 * In order, for every request (after the deployment check of core/env.ts: a production server
 * with an unsafe configuration answers 500 and logs which variable to set):
 *   1. request id: Vercel's `x-vercel-id` or a well-formed incoming `x-request-id`, else a new one; every
 *      response carries it as `x-request-id`, and every log line of the request (a pino child logger);
 *   2. session (lib/auth/session.ts): absent → 401, unless the route says `auth: "public"`; a session
 *      whose account no longer exists, or that was ended (signed out, password changed, "sign out
 *      everywhere": lib/auth/revocation.ts), is a 401 too (checked once the request has parsed).
 *      Or a personal access token (lib/auth/access-tokens.ts), `Authorization: Bearer llt_…`, on the
 *      routes that declare `bearer: "read" | "write"` only: the cookie is then not read (any other
 *      `Authorization`, e.g. a basic-auth proxy's `Basic …`, is no token attempt and is ignored). A token that
 *      is unknown, revoked, expired or ended is a 401, a read token on a write route a 403
 *      (`forbidden:scope`), and a token on any other signed-in route a 403 (`forbidden:access_token`):
 *      account and token management take a session, never a token;
 *   3. params, query, body parsed with the route's zod schemas → 400 naming each bad field
 *      (`fields: { "body.email": "…", "params.id": "…" }`); bodies must be JSON (415), ≤ 256 KB (413),
 *      well-formed (400). A route that takes an upload says `form: { maxBytes, parse }` instead of
 *      `body`: multipart/form-data (415) whose Content-Length, when it has one, is ≤ maxBytes
 *      (413), judged on the headers here; its body is read only after step 4 (below);
 *   4. rate limit (`rateLimit: "chat"`, counted in the database — lib/limits/rate-limit.ts): over the
 *      limit → 429 with Retry-After. After validation, so requests refused with a 400 do not count.
 *      A request with an access token also counts against its token's limit and its owner's
 *      access-token limit (`accessToken`, `accessTokenUser`); a handler that returns marks the token used.
 *      `rateLimit` may be a function of the parsed query and body (a search by meaning costs an
 *      embedding, a text search does not). Then an upload takes one of the process's upload slots
 *      (lib/limits/uploads.ts: none free → 503 with Retry-After) and its body is parsed as it streams
 *      in (lib/api/multipart.ts: 413 the moment it passes maxBytes, declared or not; malformed → 400)
 *      and handed to `parse`, which throws the 400/415 of a bad field; an upload refused here gives
 *      its rate-limit hit back;
 *   5. the handler runs with `{ db, userId, token, params, query, body, request, requestId, log }`; it returns
 *      data (→ JSON with `status`, default 200), `undefined` (→ 204) or a Response of its own;
 *   6. an `AppError` becomes its status and `{ error: { code, message, fields?, requestId } }`;
 *      anything else is logged and answered 500 `internal` — never a stack trace.
 * Nothing touches the database before steps 2–3 have passed.
 */
import type { z } from "zod";
import { assertSafeDeployment } from "@/core/env";
import { AppError, type FieldErrors, isAppError } from "@/core/errors";
import { type Logger, logger } from "@/core/logger";
import { type Db, getDb } from "@/db/client";
import { findLiveAccessToken, touchAccessToken } from "@/db/queries/access-tokens";
import { userExists } from "@/db/queries/users";
import type { AccessTokenScope } from "@/db/schema";
import { type AiRegistry, getAiRegistry } from "@/lib/ai/registry";
import { bearerOf, hashAccessToken, scopeAllows } from "@/lib/auth/access-tokens";
import { decodeRequestSession } from "@/lib/auth/session";
import { getRateLimiter, type RateLimitName, type SharedLimitName } from "@/lib/limits/rate-limit";
import { takeUploadSlot } from "@/lib/limits/uploads";
import type { UploadForm } from "@/lib/validation/upload-form";
import { queryObject, readJsonBody } from "./body";
import { checkFormHeaders, readMultipart } from "./multipart";
import { errorResponse, requestIdOf } from "./response";

// The body limit lives with the body reader, the request id and error shape in ./response;
// re-exported for callers of this module.
export { MAX_BODY_BYTES } from "./body";
export { errorResponse, requestIdOf } from "./response";

type Schema = z.ZodType;
type Output<S> = S extends Schema ? z.output<S> : undefined;

/** An upload route's body: multipart/form-data of at most `maxBytes` (the whole body), judged by `parse`. */
export interface FormSpec<F> {
  maxBytes: number;
  /** The parsed form → the handler's `form`; throws an AppError (400, 413, 415) for a bad field. */
  parse: (form: UploadForm) => F | Promise<F>;
}

type RouteRateLimit<Q, B> = RateLimitName | ((input: { query: Output<Q>; body: Output<B> }) => RateLimitName | null);

export interface RouteOptions<A extends "user" | "public", P, Q, B, F = undefined> {
  /** "user" (default): a signed-in user is required. "public": anyone; `userId` may be null. */
  auth?: A;
  /** Path parameters (`[id]` segments). Use strict objects. */
  params?: P;
  /** Query string, as an object of strings. Use strict objects. */
  query?: Q;
  /** JSON body. Use strict objects: unknown fields are a 400. */
  body?: B;
  /** A multipart/form-data body instead of JSON (an upload): see FormSpec. */
  form?: FormSpec<F>;
  /**
   * A named per-user limit from lib/limits/rate-limit.ts, or a function of the parsed query and
   * body naming one (null: not counted), for a route that costs more for some requests only.
   * Requires `auth: "user"`.
   */
  rateLimit?: A extends "public" ? never : RouteRateLimit<Q, B>;
  /**
   * Also accept a personal access token (`Authorization: Bearer`): "read" for any token, "write"
   * for read+write tokens only. Without it, a token is refused (403). Requires `auth: "user"`.
   */
  bearer?: A extends "public" ? never : "read" | "write";
  /** Status of a successful response when the handler returns data (default 200). */
  status?: number;
}

export interface RouteContext<A extends "user" | "public", P, Q, B, F = undefined> {
  db: Db;
  ai: AiRegistry;
  userId: A extends "public" ? string | null : string;
  /** The access token the request came with (null for a session). */
  token: AuthenticatingToken | null;
  params: Output<P>;
  query: Output<Q>;
  body: Output<B>;
  form: F;
  request: Request;
  requestId: string;
  log: Logger;
}

export interface AuthenticatingToken {
  id: string;
  name: string;
  scope: AccessTokenScope;
}

export interface NextRouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}

export type RouteHandler = (request: Request, context: NextRouteContext) => Promise<Response>;

function internalResponse(requestId: string): Response {
  return errorResponse(
    new AppError("internal", "Something went wrong on our side. Quote the request id if you report it."),
    requestId,
  );
}

/** Returns the response with `x-request-id` set (copying it when its headers are immutable). */
function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set("x-request-id", requestId);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("x-request-id", requestId);
    return copy;
  }
}

/** zod issues → `{ "<where>.<path>": message }`; unknown keys get one entry each. */
export function fieldErrors(where: string, error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const base = [where, ...issue.path.map(String)].join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) fields[`${base}.${key}`] ??= "Unknown field";
    } else {
      fields[base] ??= issue.message;
    }
  }
  return fields;
}

/** 429 when `limiter` refuses `key` (null: that limit is off). */
async function takeLimit(db: Db, name: SharedLimitName, key: string): Promise<void> {
  const decision = await getRateLimiter(name)?.take(db, key);
  if (decision && !decision.ok) {
    throw new AppError("rate_limited", "Too many requests — try again shortly", {
      retryAfter: decision.retryAfterSeconds,
    });
  }
}

const INVALID_TOKEN =
  "This access token is not valid: it is unknown, revoked, expired, or was ended with your sessions";

function parseWith<S extends Schema>(schema: S, where: string, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const fields = fieldErrors(where, result.error);
    const first = Object.entries(fields)[0];
    throw new AppError("bad_request", first ? `${first[0]}: ${first[1]}` : `Invalid ${where}`, { fields });
  }
  return result.data;
}

export function route<
  A extends "user" | "public" = "user",
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  F = undefined,
>(options: RouteOptions<A, P, Q, B, F>, handler: (ctx: RouteContext<A, P, Q, B, F>) => Promise<unknown>): RouteHandler {
  const access = options.auth ?? "user";
  if (access === "public" && options.rateLimit) throw new Error('rateLimit needs a signed-in user (auth: "user")');
  if (access === "public" && options.bearer) throw new Error('bearer needs a signed-in user (auth: "user")');
  if (options.body && options.form) throw new Error("a route takes a JSON body or a form, not both");

  return async (request, context) => {
    const requestId = requestIdOf(request);
    const started = performance.now();
    const path = new URL(request.url).pathname;
    let log = logger.child({ requestId, method: request.method, path });
    let response: Response;
    let releaseUpload: (() => void) | undefined;
    try {
      // A production server with an unsafe configuration refuses every request, also when
      // instrumentation.ts register() did not run (core/env.ts): logged, answered 500.
      assertSafeDeployment();
      // A bearer credential, on a signed-in route: checked for shape here, in the database below.
      const bearer = access === "user" ? bearerOf(request) : null;
      if (bearer && !options.bearer) {
        throw new AppError(
          "forbidden:access_token",
          "Access tokens cannot be used here — this needs you signed in to Lifeline",
        );
      }
      if (bearer && "malformed" in bearer) throw new AppError("unauthorized", INVALID_TOKEN);
      const session = bearer ? null : await decodeRequestSession(request);
      if (!session && !bearer && access === "user") throw new AppError("unauthorized", "Sign in to continue");
      let userId = session?.user.id ?? null;
      if (userId) log = log.child({ userId });

      const params = options.params ? parseWith(options.params, "params", await context.params) : undefined;
      const query = options.query ? parseWith(options.query, "query", queryObject(request)) : undefined;
      const body = options.body ? parseWith(options.body, "body", await readJsonBody(request)) : undefined;
      // An upload is judged on its headers here; its body is read only once it has passed the
      // session, the rate limit and the server's bound on uploads in flight (below).
      if (options.form) checkFormHeaders(request, options.form.maxBytes);

      const db = await getDb();
      // A valid session of an account that no longer exists (deleted, or another database), or one
      // that was ended (lib/auth/revocation.ts), is signed out.
      if (
        session &&
        access === "user" &&
        !(await userExists(db, { userId: session.user.id, session: session.claims }))
      ) {
        throw new AppError("unauthorized", "Your session has ended or your account no longer exists — sign in again");
      }

      let token: AuthenticatingToken | null = null;
      if (bearer && "secret" in bearer && options.bearer) {
        const live = await findLiveAccessToken(db, { tokenHash: hashAccessToken(bearer.secret) });
        if (!live) throw new AppError("unauthorized", INVALID_TOKEN);
        if (!scopeAllows(live.scope, options.bearer)) {
          throw new AppError("forbidden:scope", "This access token is read-only — this needs a read+write token");
        }
        token = { id: live.id, name: live.name, scope: live.scope };
        userId = live.userId;
        log = log.child({ userId, accessTokenId: live.id });
        await takeLimit(db, "accessToken", live.id);
        await takeLimit(db, "accessTokenUser", live.userId);
      }

      const rateLimit = options.rateLimit as RouteRateLimit<Q, B> | undefined;
      const limit =
        typeof rateLimit === "function" ? rateLimit({ query: query as Output<Q>, body: body as Output<B> }) : rateLimit;
      if (limit && userId) await takeLimit(db, limit, userId);
      let form: F | undefined;
      if (options.form) {
        try {
          releaseUpload = takeUploadSlot();
          form = await options.form.parse(await readMultipart(request, options.form.maxBytes));
        } catch (error) {
          // An upload refused on its content (400, 413, 415) or for a busy server (503) was counted only
          // because its body is read after the limit: its hit is given back, as for any refused request.
          if (limit && userId && isAppError(error)) await getRateLimiter(limit)?.refund(db, userId);
          throw error;
        }
      }
      const result = await handler({
        db,
        ai: getAiRegistry(),
        userId: userId as RouteContext<A, P, Q, B, F>["userId"],
        token,
        params: params as Output<P>,
        query: query as Output<Q>,
        body: body as Output<B>,
        form: form as F,
        request,
        requestId,
        log,
      });
      // "Last used" is the last request the token was accepted for and answered without an error.
      if (token) await touchAccessToken(db, { tokenId: token.id });
      if (result instanceof Response) response = withRequestId(result, requestId);
      else if (result === undefined)
        response = new Response(null, { status: 204, headers: { "x-request-id": requestId } });
      else
        response = Response.json(result, {
          status: options.status ?? 200,
          headers: { "x-request-id": requestId, "cache-control": "no-store" },
        });
    } catch (error) {
      if (isAppError(error) && error.code !== "internal") {
        response = errorResponse(error, requestId);
      } else {
        log.error({ err: error }, "unhandled error in route handler");
        response = internalResponse(requestId);
      }
    } finally {
      releaseUpload?.();
    }
    log.info({ status: response.status, ms: Math.round(performance.now() - started) }, "request");
    return response;
  };
}

/**
 * For handlers that are not ours to write (Auth.js): adds the request id and turns a thrown
 * error into the same 500 JSON, without touching the request.
 */
export function passthrough<R extends Request>(
  handler: (request: R) => Promise<Response>,
): (request: R) => Promise<Response> {
  return async (request) => {
    const requestId = requestIdOf(request);
    try {
      return withRequestId(await handler(request), requestId);
    } catch (error) {
      logger.error(
        { err: error, requestId, method: request.method, path: new URL(request.url).pathname },
        "unhandled error in route handler",
      );
      return internalResponse(requestId);
    }
  };
}
