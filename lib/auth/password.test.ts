import { createHash } from "node:crypto";
import bcrypt from "bcryptjs";
import { describe, expect, it, vi } from "vitest";
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
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(new RegExp(`^\\$2[aby]\\$${String(bcryptCost()).padStart(2, "0")}\\$`));
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterz", hash)).toBe(false);
  });

  it("verifies a hash made at another cost (a stored hash keeps its own cost)", async () => {
    const hash = await bcrypt.hash(createHash("sha256").update("old password", "utf8").digest("base64"), 5);
    expect(await verifyPassword("old password", hash)).toBe(true);
    expect(await verifyPassword("old passwork", hash)).toBe(false);
  });

  it("tells apart long passwords that share their first 72 bytes (bcrypt alone would not)", async () => {
    const prefix = "x".repeat(72);
    const hash = await hashPassword(`${prefix}-one`);
    expect(await verifyPassword(`${prefix}-one`, hash)).toBe(true);
    expect(await verifyPassword(`${prefix}-two`, hash)).toBe(false);
  });

  it("without a stored hash, still runs one full bcrypt comparison, and says no", async () => {
    const compare = vi.spyOn(bcrypt, "compare");
    try {
      expect(await verifyPassword("anything at all", null)).toBe(false);
      expect(await verifyPassword("anything at all", undefined)).toBe(false);
      expect(compare).toHaveBeenCalledTimes(2);
      const [, dummy] = compare.mock.calls[0] ?? [];
      expect(dummy).toMatch(new RegExp(`^\\$2[aby]\\$${String(bcryptCost()).padStart(2, "0")}\\$`));
    } finally {
      compare.mockRestore();
    }
  });
});

describe("hashing slots", () => {
  // bcrypt's cost does not matter here: a slow stand-in keeps the test fast and deterministic.
  const slowCompare = () =>
    vi
      .spyOn(bcrypt, "compare")
      .mockImplementation(() => new Promise((resolve) => setTimeout(() => resolve(false as never), 30)));
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
      compare.mockRestore();
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
      compare.mockRestore();
    }
  });
});
