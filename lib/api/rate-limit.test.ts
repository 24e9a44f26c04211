import { describe, expect, it } from "vitest";
import { createRateLimiter, parseRateLimit } from "./rate-limit";

describe("parseRateLimit", () => {
  it.each([
    ["20/60s", { limit: 20, windowMs: 60_000 }],
    ["20/60", { limit: 20, windowMs: 60_000 }],
    [" 5 / 500ms ", { limit: 5, windowMs: 500 }],
    ["100/1h", { limit: 100, windowMs: 3_600_000 }],
    ["3/2m", { limit: 3, windowMs: 120_000 }],
  ])("%s", (spec, expected) => {
    expect(parseRateLimit(spec)).toEqual(expected);
  });

  it("off disables", () => {
    expect(parseRateLimit("off")).toBeNull();
  });

  it.each(["", "20", "0/60s", "20/0s", "-1/60s", "20/60d", "twenty/60s", "1.5/60s"])("rejects %j", (spec) => {
    expect(() => parseRateLimit(spec)).toThrow(/Invalid rate limit/);
  });
});

describe("createRateLimiter (sliding window)", () => {
  it("allows `limit` requests per window per key, then answers with the seconds until the oldest expires", () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000 }, () => now);
    expect(limiter.take("a")).toEqual({ ok: true, remaining: 2 });
    now += 10_000;
    expect(limiter.take("a")).toEqual({ ok: true, remaining: 1 });
    now += 10_000;
    expect(limiter.take("a")).toEqual({ ok: true, remaining: 0 });
    now += 1_000;
    // Oldest hit was at t0; it leaves the window at t0 + 60 s, i.e. 39 s from now.
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterSeconds: 39 });
    // Other users are not affected.
    expect(limiter.take("b")).toEqual({ ok: true, remaining: 2 });
  });

  it("slides: a request becomes possible again exactly when the oldest leaves the window", () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 2, windowMs: 1_000 }, () => now);
    limiter.take("u");
    now = 400;
    limiter.take("u");
    now = 999;
    expect(limiter.take("u").ok).toBe(false);
    now = 1_000;
    expect(limiter.take("u")).toEqual({ ok: true, remaining: 0 });
    now = 1_399;
    expect(limiter.take("u").ok).toBe(false);
    now = 1_400;
    expect(limiter.take("u").ok).toBe(true);
  });

  it("rejected requests do not count", () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000 }, () => now);
    limiter.take("u");
    for (let i = 0; i < 5; i++) {
      now += 100;
      expect(limiter.take("u").ok).toBe(false);
    }
    now = 1_000;
    expect(limiter.take("u").ok).toBe(true);
  });

  it("Retry-After is at least one second", () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 1, windowMs: 200 }, () => now);
    limiter.take("u");
    now = 150;
    expect(limiter.take("u")).toEqual({ ok: false, retryAfterSeconds: 1 });
  });
});
