/**
 * The client's address, for per-address rate limits (failed sign-ins, registrations).
 *
 * Next's route handlers are not given the socket address. `next start` itself fills in
 * `X-Forwarded-For` with the socket address — but only when the request did not bring one, so
 * without a proxy in front the header is whatever the client chose to send. Which header to believe
 * is therefore a setting, `LIFELINE_TRUSTED_PROXY` (core/env.ts), never a guess:
 *
 * - `vercel` (the default on Vercel): `X-Vercel-Forwarded-For`, else `X-Real-IP` — Vercel sets both
 *   to the client's public address and overwrites what the client sent (a proxy in front of Vercel
 *   may overwrite `X-Forwarded-For`, not these).
 * - `1`, `2`, …: that many proxies of yours stand in front, each appending the address it saw to
 *   `X-Forwarded-For` (nginx `$proxy_add_x_forwarded_for`; one that overwrites the header with
 *   `$remote_addr` is the same as one appending to nothing). The client is the N-th entry from the
 *   right: what the client wrote itself is further left and never read.
 * - `none` (the default elsewhere): nothing is trusted — there is no address (null), the
 *   per-address limits do not apply, and the per-account limits and the hashing cap
 *   (lib/auth/password.ts) still do.
 *
 * Behind a trusted proxy a request whose address is missing or unparsable (`not-an-ip`, too few
 * entries) is never let through uncounted: all of them share one key, UNPARSABLE_ADDRESS.
 */
import { isIP } from "node:net";
import { env as processEnv, type RawEnv } from "@/core/env";

/** What stands in front of the server: nothing, Vercel, or that many proxies appending X-Forwarded-For. */
export type TrustedProxy = { kind: "none" } | { kind: "vercel" } | { kind: "hops"; hops: number };

/** The rate-limit key of every request behind a trusted proxy whose client address cannot be read. */
export const UNPARSABLE_ADDRESS = "unparsable";

export function trustedProxy(env: RawEnv = processEnv()): TrustedProxy {
  const setting = env.LIFELINE_TRUSTED_PROXY?.trim().toLowerCase();
  if (!setting) return env.VERCEL?.trim() ? { kind: "vercel" } : { kind: "none" };
  if (setting === "vercel") return { kind: "vercel" };
  if (/^[1-9]$/.test(setting)) return { kind: "hops", hops: Number(setting) };
  // core/env.ts refuses anything else at start; a hand-built env object means "none".
  return { kind: "none" };
}

/** A well-formed address of one header entry ("1.2.3.4", "1.2.3.4:5678", "[::1]:1234", "::1"), or null. */
export function parseAddress(entry: string | undefined): string | null {
  const value = entry?.trim();
  if (!value) return null;
  const bare = value.replace(/^\[([^\]]+)\](?::\d+)?$/, "$1").replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, "$1");
  return isIP(bare) ? bare.toLowerCase() : null;
}

/**
 * The rate-limit key of the request's client: its address, UNPARSABLE_ADDRESS when a trusted proxy
 * is configured but the address cannot be read, or null when no proxy is trusted.
 */
export function clientAddress(headers: Headers, env: RawEnv = processEnv()): string | null {
  const proxy = trustedProxy(env);
  if (proxy.kind === "none") return null;
  if (proxy.kind === "vercel") {
    const vercel = headers.get("x-vercel-forwarded-for") ?? headers.get("x-real-ip");
    // Vercel writes one address; if ever a list, the first entry is the client's.
    return parseAddress(vercel?.split(",")[0]) ?? UNPARSABLE_ADDRESS;
  }
  // Several X-Forwarded-For headers are one list (Headers.get joins them with ", ").
  const entries = (headers.get("x-forwarded-for") ?? "").split(",");
  const entry = entries.length >= proxy.hops ? entries[entries.length - proxy.hops] : undefined;
  return parseAddress(entry) ?? UNPARSABLE_ADDRESS;
}
