/**
 * Per-user sliding-window rate limits (exact: a log of the request times inside the window).
 *
 * In memory, per server process: each process counts on its own, and a restart forgets. That is
 * right for one Node process (`next start`, the embedded default); behind several instances the
 * effective limit is N × the configured one — put a shared store (Redis, Postgres) behind the
 * same `RateLimiter` interface before scaling out.
 *
 * Limits come from the environment, read when a limiter is first used:
 *   LIFELINE_CHAT_RATE_LIMIT = "<requests>/<window>"  e.g. "20/60s" (default), "100/1h", "5/500ms";
 *                              "off" disables the limit.
 */

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export type RateLimitDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Records one request for `key` if it is allowed. */
  take(key: string): RateLimitDecision;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Parses "20/60s" → { limit: 20, windowMs: 60000 }; "off" → null. Throws on anything else. */
export function parseRateLimit(spec: string): RateLimit | null {
  const value = spec.trim().toLowerCase();
  if (value === "off") return null;
  const match = /^(\d+)\s*\/\s*(\d+)\s*(ms|s|m|h)?$/.exec(value);
  const limit = Number(match?.[1]);
  const amount = Number(match?.[2]);
  const unit = (match?.[3] ?? "s") as keyof typeof UNIT_MS;
  if (!match || !Number.isSafeInteger(limit) || limit < 1 || !Number.isSafeInteger(amount) || amount < 1) {
    throw new Error(`Invalid rate limit "${spec}": expected "<requests>/<window>" such as "20/60s", or "off"`);
  }
  return { limit, windowMs: amount * UNIT_MS[unit] };
}

export function createRateLimiter({ limit, windowMs }: RateLimit, now: () => number = Date.now): RateLimiter {
  const hits = new Map<string, number[]>();
  let calls = 0;

  function sweep(at: number) {
    for (const [key, times] of hits) {
      const last = times[times.length - 1];
      if (last === undefined || last <= at - windowMs) hits.delete(key);
    }
  }

  return {
    take(key) {
      const at = now();
      // Forget idle keys now and then so memory stays bounded by the active users.
      if (++calls % 1000 === 0) sweep(at);
      const times = (hits.get(key) ?? []).filter((t) => t > at - windowMs);
      if (times.length >= limit) {
        hits.set(key, times);
        const oldest = times[0] ?? at;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at) / 1000)) };
      }
      times.push(at);
      hits.set(key, times);
      return { ok: true, remaining: limit - times.length };
    },
  };
}

/** The named limits a route can ask for (`route({ rateLimit: "chat" }, …)`). */
const LIMITS = {
  chat: { env: "LIFELINE_CHAT_RATE_LIMIT", default: "20/60s" },
} as const;

export type RateLimitName = keyof typeof LIMITS;

const limiters = new Map<RateLimitName, RateLimiter | null>();

/** The process-wide limiter for `name`, built from the environment on first use; null when "off". */
export function getRateLimiter(name: RateLimitName): RateLimiter | null {
  if (!limiters.has(name)) {
    const { env, default: fallback } = LIMITS[name];
    const spec = process.env[env]?.trim() || fallback;
    let parsed: RateLimit | null;
    try {
      parsed = parseRateLimit(spec);
    } catch (error) {
      throw new Error(`${env}: ${(error as Error).message}`);
    }
    limiters.set(name, parsed ? createRateLimiter(parsed) : null);
  }
  return limiters.get(name) ?? null;
}
