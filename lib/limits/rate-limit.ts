/**
 * Rate limits, counted in the project's database so that every server instance (serverless
 * functions, several `next start` processes) shares one count: db/queries/rate-limits.ts, one
 * statement per check, fixed windows that start at a key's first hit. A restart forgets nothing.
 *
 * Limits come from the environment, read when a limiter is first used:
 *   LIFELINE_CHAT_RATE_LIMIT        chat requests per user                 default "20/60s"
 *   LIFELINE_EMBED_RATE_LIMIT       texts a user has embedded (a memory preview, a search by meaning)
 *                                                                          default "60/60s"
 *   LIFELINE_SIGNIN_RATE_LIMIT      sign-in attempts per account (email)   default "10/15m"
 *   LIFELINE_SIGNIN_IP_RATE_LIMIT   failed sign-ins per client address     default "50/15m"
 *   LIFELINE_REGISTER_RATE_LIMIT    registrations per client address       default "20/1h"
 *   LIFELINE_ACCESS_TOKEN_RATE_LIMIT       requests per access token          default "60/60s"
 *   LIFELINE_ACCESS_TOKEN_USER_RATE_LIMIT  access-token requests per user     default "120/60s"
 * each "<requests>/<window>" (e.g. "100/1h", "5/500ms") or "off".
 */
import { env as processEnv, type RawEnv } from "@/core/env";
import { logger } from "@/core/logger";
import type { Db } from "@/db/client";
import { deleteExpiredRateLimits, hitRateLimit, refundRateLimit, resetRateLimit } from "@/db/queries/rate-limits";

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export type RateLimitDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

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

/** The named limits (`route({ rateLimit: "chat" }, …)` for per-user ones). */
const LIMITS = {
  chat: { env: "LIFELINE_CHAT_RATE_LIMIT", default: "20/60s" },
  embed: { env: "LIFELINE_EMBED_RATE_LIMIT", default: "60/60s" },
  signin: { env: "LIFELINE_SIGNIN_RATE_LIMIT", default: "10/15m" },
  signinIp: { env: "LIFELINE_SIGNIN_IP_RATE_LIMIT", default: "50/15m" },
  register: { env: "LIFELINE_REGISTER_RATE_LIMIT", default: "20/1h" },
  accessToken: { env: "LIFELINE_ACCESS_TOKEN_RATE_LIMIT", default: "60/60s" },
  accessTokenUser: { env: "LIFELINE_ACCESS_TOKEN_USER_RATE_LIMIT", default: "120/60s" },
} as const;

export type SharedLimitName = keyof typeof LIMITS;
/** The limits a route can name: per signed-in user. */
export type RateLimitName = "chat" | "embed";

/** A limit whose counts live in the database (shared by every server instance). */
export interface SharedRateLimiter {
  readonly limit: RateLimit;
  take(db: Db, key: string): Promise<RateLimitDecision>;
  refund(db: Db, key: string): Promise<void>;
  reset(db: Db, key: string): Promise<void>;
}

/** Delete expired windows about once every CLEANUP_EVERY checks (per process). */
const CLEANUP_EVERY = 200;
let checks = 0;

export function createSharedRateLimiter(name: string, limit: RateLimit): SharedRateLimiter {
  const full = (key: string) => `${name}:${key}`;
  return {
    limit,
    async take(db, key) {
      if (++checks % CLEANUP_EVERY === 0) {
        deleteExpiredRateLimits(db).catch((err) => logger.warn({ err }, "rate limit: cleanup failed"));
      }
      const hit = await hitRateLimit(db, { key: full(key), limit: limit.limit, windowMs: limit.windowMs });
      if (hit.count > limit.limit) {
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(hit.resetInMs / 1000)) };
      }
      return { ok: true, remaining: limit.limit - hit.count };
    },
    async refund(db, key) {
      await refundRateLimit(db, { key: full(key) });
    },
    async reset(db, key) {
      await resetRateLimit(db, { key: full(key) });
    },
  };
}

const limiters = new Map<SharedLimitName, SharedRateLimiter | null>();

/** The limiter for `name`, built from the environment on first use; null when "off". */
export function getRateLimiter(name: SharedLimitName): SharedRateLimiter | null {
  if (!limiters.has(name)) {
    const { env, default: fallback } = LIMITS[name];
    const spec = (processEnv() as RawEnv)[env]?.trim() || fallback;
    let parsed: RateLimit | null;
    try {
      parsed = parseRateLimit(spec);
    } catch (error) {
      throw new Error(`${env}: ${(error as Error).message}`);
    }
    limiters.set(name, parsed ? createSharedRateLimiter(name, parsed) : null);
  }
  return limiters.get(name) ?? null;
}

/** Forgets the limiters built so far, so the next use reads the environment again (tests). */
export function resetRateLimiters(): void {
  limiters.clear();
}
