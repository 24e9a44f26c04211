/**
 * Auth.js builds redirects and CSRF checks on this URL, so it must be the origin the browser uses.
 * Next cannot be left to do it: it builds a handler's URL from the address it listens on, and
 * NextRequest rewrites any loopback host to `localhost`, so Auth.js is handed a plain `Request`.
 */
import { isProductionServer, type RawEnv } from "@/core/env";

/** Auth.js' own `trustHost` rule, with "false" meaning false. */
export function trustsHost(env: RawEnv): boolean {
  if (env.AUTH_URL?.trim()) return true;
  const setting = env.AUTH_TRUST_HOST?.trim().toLowerCase();
  if (setting) return setting === "true" || setting === "1";
  return Boolean(env.VERCEL?.trim()) || !isProductionServer(env);
}

const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
const firstOf = (value: string | null) => value?.split(",")[0]?.trim() || undefined;

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
