import { DrizzleQueryError } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { isTransientDatabaseError, retryTransient } from "./errors";

const coded = (code: string, message = "failed") => Object.assign(new Error(message), { code });

describe("isTransientDatabaseError", () => {
  it("recognises a lost connection, a shutdown and a transaction Postgres gave up on, through drizzle's wrapper", () => {
    for (const cause of [
      new Error("Connection terminated unexpectedly"),
      coded("08006"),
      coded("57P01"),
      coded("40001"),
      coded("40P01"),
      coded("ECONNRESET"),
    ]) {
      expect(isTransientDatabaseError(new DrizzleQueryError("UPDATE messages …", [], cause))).toBe(true);
    }
  });

  it("leaves alone an error that would happen again", () => {
    for (const error of [coded("23505"), coded("42P01"), new Error("Message not found")]) {
      expect(isTransientDatabaseError(error)).toBe(false);
    }
  });
});

describe("retryTransient", () => {
  it("runs the work again after each delay while it fails transiently, then throws the last error", async () => {
    let calls = 0;
    await expect(
      retryTransient(async () => {
        calls += 1;
        throw coded("57P01");
      }, [0, 0]),
    ).rejects.toMatchObject({ code: "57P01" });
    expect(calls).toBe(3);
  });
});
