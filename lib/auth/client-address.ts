/**
 * `next start` fills in X-Forwarded-For only when the request did not bring one, so without a proxy
 * the header is whatever the client sent: which header to believe is a setting
 * (LIFELINE_TRUSTED_PROXY), never a guess. With N proxies the client is the N-th entry from the
 * right; what the client wrote itself is further left and never read. Behind a trusted proxy an
 * unreadable address is never let through uncounted: all share UNPARSABLE_ADDRESS.
 */
import { isIP } from "node:net";
import { env as processEnv, type RawEnv } from "@/core/env";

export type TrustedProxy = { kind: "none" } | { kind: "vercel" } | { kind: "hops"; hops: number };

export const UNPARSABLE_ADDRESS = "unparsable";

export function trustedProxy(env: RawEnv = processEnv()): TrustedProxy {
  const setting = env.LIFELINE_TRUSTED_PROXY?.trim().toLowerCase();
  if (!setting) return env.VERCEL?.trim() ? { kind: "vercel" } : { kind: "none" };
  if (setting === "vercel") return { kind: "vercel" };
  if (/^[1-9]$/.test(setting)) return { kind: "hops", hops: Number(setting) };
  // core/env.ts refuses anything else at start; a hand-built env object means "none".
  return { kind: "none" };
}

/** Accepts "1.2.3.4", "1.2.3.4:5678", "[::1]:1234", "::1". */
export function parseAddress(entry: string | undefined): string | null {
  const value = entry?.trim();
  if (!value) return null;
  const bare = value.replace(/^\[([^\]]+)\](?::\d+)?$/, "$1").replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, "$1");
  return isIP(bare) ? bare.toLowerCase() : null;
}

/** null when no proxy is trusted: per-address limits then do not apply. */
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
