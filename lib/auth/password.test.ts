import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import * as nativeBcrypt from "@node-rs/bcrypt";
// bcryptjs (pure JavaScript, the earlier hasher) makes the stored hashes of earlier accounts.
import bcryptjs from "bcryptjs";
import { describe, expect, it, vi } from "vitest";

// The binding's functions, observable: each delegates to the real one unless a test says otherwise.
vi.mock("@node-rs/bcrypt", async (importOriginal) => {
  const real = await importOriginal<typeof import("@node-rs/bcrypt")>();
  return { ...real, hash: vi.fn(real.hash), verify: vi.fn(real.verify) };
});

import {
  bcryptCost,
  HASH_CONCURRENCY,
  HASH_QUEUE,
  hashingLoad,
  hashPassword,
  PasswordHashingBusy,
  verifyPassword,
} from "./password";

describe("passwords", () => {
  it("hashes with bcrypt at the configured cost and verifies", async () => {
    vi.mocked(nativeBcrypt.hash).mockClear();
    const hash = await hashPassword("correct horse battery");
    expect(nativeBcrypt.hash).toHaveBeenCalledWith(expect.any(String), bcryptCost());
    expect(hash).toMatch(new RegExp(`^\\$2[aby]\\$${String(bcryptCost()).padStart(2, "0")}\\$`));
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterz", hash)).toBe(false);
  });

  it("verifies a hash made at another cost (a stored hash keeps its own cost)", async () => {
    const hash = await bcryptjs.hash(createHash("sha256").update("old password", "utf8").digest("base64"), 5);
    expect(await verifyPassword("old password", hash)).toBe(true);
    expect(await verifyPassword("old passwork", hash)).toBe(false);
  });

  it("keeps verifying the hashes bcryptjs made ($2a$ and $2b$), and bcryptjs verifies the new ones", async () => {
    const prehashed = createHash("sha256").update("earlier account", "utf8").digest("base64");
    const old2b = await bcryptjs.hash(prehashed, 4);
    const old2a = old2b.replace(/^\$2b\$/, "$2a$");
    for (const stored of [old2b, old2a]) {
      expect(await verifyPassword("earlier account", stored)).toBe(true);
      expect(await verifyPassword("earlier accounT", stored)).toBe(false);
    }
    expect(await bcryptjs.compare(prehashed, await hashPassword("earlier account"))).toBe(true);
  });

  it("hashes off the event loop: at cost 12 the loop stays mostly idle while a hash runs", async () => {
    // Event-loop utilisation is the share of the time the loop was busy: a ratio, not a duration.
    // bcryptjs computes on the loop itself (its utilisation here is ~1); the binding on libuv's pool.
    const start = performance.eventLoopUtilization();
    await nativeBcrypt.hash("a password", 12);
    const native = performance.eventLoopUtilization(start).utilization;
    const before = performance.eventLoopUtilization();
    await bcryptjs.hash("a password", 12);
    const javascript = performance.eventLoopUtilization(before).utilization;
    expect(javascript).toBeGreaterThan(0.5);
    expect(native).toBeLessThan(0.25);
  });

  it("tells apart long passwords that share their first 72 bytes (bcrypt alone would not)", async () => {
    const prefix = "x".repeat(72);
    const hash = await hashPassword(`${prefix}-one`);
    expect(await verifyPassword(`${prefix}-one`, hash)).toBe(true);
    expect(await verifyPassword(`${prefix}-two`, hash)).toBe(false);
  });

  it("without a stored hash, still runs one full bcrypt comparison, and says no", async () => {
    const compare = vi.mocked(nativeBcrypt.verify);
    compare.mockClear();
    try {
      expect(await verifyPassword("anything at all", null)).toBe(false);
      expect(await verifyPassword("anything at all", undefined)).toBe(false);
      expect(compare).toHaveBeenCalledTimes(2);
      const [, dummy] = compare.mock.calls[0] ?? [];
      expect(dummy).toMatch(new RegExp(`^\\$2[aby]\\$${String(bcryptCost()).padStart(2, "0")}\\$`));
    } finally {
      compare.mockClear();
    }
  });
});

describe("hashing slots", () => {
  // bcrypt's cost does not matter here: a slow stand-in keeps the test fast and deterministic.
  const slowCompare = () => {
    const compare = vi.mocked(nativeBcrypt.verify);
    compare.mockClear();
    return compare.mockImplementation(() => new Promise((resolve) => setTimeout(() => resolve(false), 30)));
  };
  const STORED = "$2b$12$abcdefghijklmnopqrstuv";

  it(`runs at most HASH_CONCURRENCY (${HASH_CONCURRENCY}) bcrypt operations at once; the rest wait their turn`, async () => {
    const compare = slowCompare();
    try {
      hashingLoad({ resetPeak: true });
      const results = await Promise.all(
        Array.from({ length: HASH_CONCURRENCY * 4 }, () => verifyPassword("x", STORED)),
      );
      expect(results).toEqual(Array(HASH_CONCURRENCY * 4).fill(false));
      expect(compare).toHaveBeenCalledTimes(HASH_CONCURRENCY * 4);
      expect(hashingLoad()).toEqual({ active: 0, peak: HASH_CONCURRENCY, waiting: 0 });
    } finally {
      compare.mockReset();
    }
  });

  it("refuses at once when the queue is full (PasswordHashingBusy), and recovers", async () => {
    const compare = slowCompare();
    try {
      const calls = Array.from({ length: HASH_CONCURRENCY + HASH_QUEUE + 3 }, () =>
        verifyPassword("x", STORED).then(
          () => "done",
          (e) => (e instanceof PasswordHashingBusy ? "busy" : "other"),
        ),
      );
      const outcomes = await Promise.all(calls);
      expect(outcomes.filter((o) => o === "busy")).toHaveLength(3);
      expect(outcomes.filter((o) => o === "done")).toHaveLength(HASH_CONCURRENCY + HASH_QUEUE);
      expect(hashingLoad()).toMatchObject({ active: 0, waiting: 0 });
      expect(await verifyPassword("x", STORED)).toBe(false);
    } finally {
      compare.mockReset();
    }
  });
});
