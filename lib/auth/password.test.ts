import bcrypt from "bcryptjs";
import { describe, expect, it, vi } from "vitest";
import { BCRYPT_COST, hashPassword, verifyPassword } from "./password";

describe("passwords", () => {
  it("hashes with bcrypt at the configured cost and verifies", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(new RegExp(`^\\$2[aby]\\$${BCRYPT_COST}\\$`));
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterz", hash)).toBe(false);
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
      expect(dummy).toMatch(new RegExp(`^\\$2[aby]\\$${BCRYPT_COST}\\$`));
    } finally {
      compare.mockRestore();
    }
  });
});
