import { describe, expect, it } from "vitest";
import { progressWords } from "./progress-words";

describe("progressWords", () => {
  it("counts as read only the exchanges whose extraction succeeded, and names skipped and failed ones apart", () => {
    expect(
      progressWords({ conversations: 2, exchanges: { total: 5, done: 3, failed: 1, skipped: 1 }, memoriesFound: 4 }),
    ).toBe(
      "2 of 5 exchanges read, from 2 conversations · 4 memories added or updated · 1 skipped (memory was off for the chat) · 1 failed",
    );
  });

  it("leaves out skipped when there are none, and says one memory and one conversation in the singular", () => {
    expect(
      progressWords({ conversations: 1, exchanges: { total: 1, done: 1, failed: 0, skipped: 0 }, memoriesFound: 1 }),
    ).toBe("1 of 1 exchanges read, from 1 conversation · 1 memory added or updated · 0 failed");
  });

  it("writes thousands with separators", () => {
    expect(
      progressWords({
        conversations: 1_200,
        exchanges: { total: 12_345, done: 10_000, failed: 0, skipped: 0 },
        memoriesFound: 2_500,
      }),
    ).toMatch(/^10,000 of 12,345 exchanges read, from 1,200 conversations · 2,500 memories/);
  });
});
