import { describe, expect, it } from "vitest";
import { parseRateLimit } from "./rate-limit";

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
