import { describe, expect, it, vi } from "vitest";
import { logger } from "@/core/logger";
import { gate } from "@/tests/fixtures/jobs";
import { runAfterResponse } from "./after-response";

describe("runAfterResponse outside a Next request scope", () => {
  it("returns at once and runs the task detached", async () => {
    const release = gate();
    let finished = false;
    runAfterResponse(async () => {
      await release.promise;
      finished = true;
    });
    expect(finished).toBe(false); // the caller did not wait
    release.open();
    await vi.waitFor(() => expect(finished).toBe(true));
  });

  it("logs a failing task instead of throwing or rejecting anywhere", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    try {
      expect(() =>
        runAfterResponse(async () => {
          throw new Error("extraction exploded");
        }),
      ).not.toThrow();
      await vi.waitFor(() =>
        expect(logged).toHaveBeenCalledWith(
          { err: expect.objectContaining({ message: "extraction exploded" }) },
          "background task failed",
        ),
      );
    } finally {
      logged.mockRestore();
    }
  });
});
