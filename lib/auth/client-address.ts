/**
 * The client's address, for per-address rate limits (sign-in, registration).
 *
 * Next's route handlers are not given the socket address. `next start` itself fills in
 * `X-Forwarded-For` with the socket address — but only when the request did not bring one, so
 * without a proxy in front the header is whatever the client chose to send. Therefore:
 *
 * - behind a proxy (`AUTH_TRUST_HOST=true`, or on Vercel): the first entry of `X-Forwarded-For`.
 *   The proxy must set the header to the address it saw (Vercel does; with nginx use
 *   `proxy_set_header X-Forwarded-For $remote_addr;`, not `$proxy_add_x_forwarded_for`).
 * - otherwise: no address (null) — per-address limits are skipped rather than keyed by a value
 *   the client picks; per-account limits and the hashing cap (lib/auth/password.ts) still apply.
 */
import { isIP } from "node:net";
import { env as processEnv, type RawEnv } from "@/core/env";

export function trustsProxyHeaders(env: RawEnv = processEnv()): boolean {
  return /^(1|true)$/i.test(env.AUTH_TRUST_HOST?.trim() ?? "") || Boolean(env.VERCEL);
}

export function clientAddress(headers: Headers, env: RawEnv = processEnv()): string | null {
  if (!trustsProxyHeaders(env)) return null;
  const first = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  if (!first) return null;
  // "[::1]:1234" and "1.2.3.4:5678" forms, then only well-formed addresses.
  const bare = first.replace(/^\[([^\]]+)\](?::\d+)?$/, "$1").replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, "$1");
  return isIP(bare) ? bare.toLowerCase() : null;
}
