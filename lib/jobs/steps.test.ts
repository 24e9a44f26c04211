import { DrizzleQueryError } from "drizzle-orm";
import { NonRetriableError } from "inngest";
import { describe, expect, it } from "vitest";
import { inngestSteps } from "@/inngest/functions/extract-memories";
import { inProcessSteps, retryDelayMs } from "./in-process-runner";
import { errorMessage, FinalJobError } from "./steps";

describe("retry backoff (in-process runner)", () => {
  it("doubles from the base after each failure, up to the cap", () => {
    const backoff = { backoffBaseMs: 2_000, backoffMaxMs: 60_000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, backoff))).toEqual([
      2_000, 4_000, 8_000, 16_000, 32_000, 60_000,
    ]);
  });

  it("schedules the next attempt from the failure time", () => {
    const at = new Date("2025-06-01T00:00:00.000Z");
    expect(inProcessSteps({ backoffBaseMs: 1_000, backoffMaxMs: 10_000 }).retryAt(3, at)).toEqual(
      new Date("2025-06-01T00:00:04.000Z"),
    );
  });
});

describe("inngestSteps", () => {
  const step = { run: async (_id: string, fn: () => Promise<unknown>) => fn() };

  it("leaves retry scheduling to Inngest", () => {
    expect(inngestSteps(step).retryAt(1, new Date())).toBeNull();
  });

  it("turns a FinalJobError into a NonRetriableError, and lets other errors be retried", async () => {
    const steps = inngestSteps(step);
    await expect(
      steps.run("x", async () => {
        throw new FinalJobError("attempts spent");
      }),
    ).rejects.toBeInstanceOf(NonRetriableError);
    const transient = new Error("timeout");
    await expect(
      steps.run("x", async () => {
        throw transient;
      }),
    ).rejects.toBe(transient);
  });
});

describe("errorMessage", () => {
  it("shows a driver error, not drizzle's wrapper that repeats the SQL and its parameters", () => {
    const wrapped = new DrizzleQueryError("select $1", ["[0.1,0.2]"], new Error("connection terminated"));
    expect(errorMessage(wrapped)).toBe("connection terminated");
  });

  it("caps long messages", () => {
    expect(errorMessage(new Error("x".repeat(5000)))).toHaveLength(1000);
    expect(errorMessage("plain")).toBe("plain");
  });
});
