import { describe, expect, it } from "vitest";
import { cleanTitle, TITLE_MAX_CHARS, TITLE_MAX_WORDS } from "./title";

describe("cleanTitle", () => {
  it("keeps at most 8 words", () => {
    expect(cleanTitle("one two three four five six seven eight nine ten")).toBe(
      "one two three four five six seven eight",
    );
    expect(cleanTitle("a b c d e f g h i").split(" ")).toHaveLength(TITLE_MAX_WORDS);
  });

  it("keeps at most 100 characters", () => {
    const long = `${"x".repeat(60)} ${"y".repeat(60)}`;
    expect(cleanTitle(long).length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
  });

  it("drops quotes, collapses whitespace and trailing punctuation", () => {
    expect(cleanTitle('  "Green tea   and\nMaya."  ')).toBe("Green tea and Maya");
    expect(cleanTitle("Planning a trip!?")).toBe("Planning a trip");
  });

  it("keeps apostrophes inside words and drops quotes around them", () => {
    expect(cleanTitle("I'm vegetarian")).toBe("I'm vegetarian");
    expect(cleanTitle("Maya’s birthday plans")).toBe("Maya’s birthday plans");
    expect(cleanTitle("'Don't panic' guide")).toBe("Don't panic guide");
    expect(cleanTitle("‘Quoted’ title.")).toBe("Quoted title");
  });
});
