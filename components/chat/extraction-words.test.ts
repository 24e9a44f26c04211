import { describe, expect, it } from "vitest";
import { savedWords } from "./extraction-words";

describe("what an answer's extraction says it did", () => {
  it("names new memories as saved and changed ones as updated", () => {
    expect(savedWords({ memories: 2, updated: 0 })).toBe("Saved 2 memories");
    expect(savedWords({ memories: 1, updated: 1 })).toBe("Updated 1 memory");
    expect(savedWords({ memories: 3, updated: 3 })).toBe("Updated 3 memories");
    expect(savedWords({ memories: 3, updated: 1 })).toBe("Saved 2 memories, updated 1");
    expect(savedWords({ memories: 2, updated: 1 })).toBe("Saved 1 memory, updated 1");
  });

  it("says nothing was found when nothing was stored", () => {
    expect(savedWords({ memories: 0, updated: 0 })).toBe("Nothing to remember");
  });
});
