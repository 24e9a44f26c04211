/**
 * The URL Auth.js is given for a request: the app's public origin with the request's path and
 * query. Auth.js builds every redirect (sign-in, callback, sign-out, error pages) and its CSRF and
 * callback checks on it, so it must be the origin the browser uses:
 *
 * - `AUTH_URL` when set;
 * - else, when the host is trusted (`AUTH_TRUST_HOST=true`, Vercel, or not a production server —
 *   Auth.js' own `trustHost` rule, with "false" meaning false), the request's `X-Forwarded-Host`
 *   and `X-Forwarded-Proto`, or its `Host`;
 * - else the request's own URL (Auth.js then refuses it in production: `UntrustedHost`).
 *
 * Next cannot be left to do this: it builds a route handler's URL from the address it listens on,
 * not from the request (`http://localhost:<port>` under `next start`), and its NextRequest rewrites
 * any loopback host — `127.0.0.1`, `[::1]` — to `localhost`, also in next-auth's own AUTH_URL
 * handling. So the request handed to Auth.js is a plain `Request`.
 */
import { isProductionServer, type RawEnv } from "@/core/env";

/** Auth.js' `trustHost`: whether the Host / X-Forwarded-* headers say what the public origin is. */
export function trustsHost(env: RawEnv): boolean {
  if (env.AUTH_URL?.trim()) return true;
  const setting = env.AUTH_TRUST_HOST?.trim().toLowerCase();
  if (setting) return setting === "true" || setting === "1";
  return Boolean(env.VERCEL?.trim()) || !isProductionServer(env);
}

const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
const firstOf = (value: string | null) => value?.split(",")[0]?.trim() || undefined;

/** The public origin ("https://lifeline.example.com") of a request, or null when nothing says it. */
export function publicOrigin(request: Request, env: RawEnv): string | null {
  const configured = env.AUTH_URL?.trim();
  if (configured) return new URL(configured).origin;
  if (!trustsHost(env)) return null;
  const host = firstOf(request.headers.get("x-forwarded-host")) ?? firstOf(request.headers.get("host"));
  const proto =
    firstOf(request.headers.get("x-forwarded-proto"))?.toLowerCase() ?? new URL(request.url).protocol.slice(0, -1);
  if (!host || !HOST.test(host) || (proto !== "http" && proto !== "https")) return null;
  return new URL(`${proto}://${host}`).origin;
}

/** The request as Auth.js must see it: at its public origin (above), a plain Request with the same method, headers and body. */
export function atPublicOrigin(request: Request, env: RawEnv): Request {
  const url = new URL(request.url);
  const origin = publicOrigin(request, env) ?? url.origin;
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== null;
  return new Request(`${origin}${url.pathname}${url.search}`, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(hasBody ? { body: request.body, duplex: "half" } : {}),
  } as RequestInit);
}
