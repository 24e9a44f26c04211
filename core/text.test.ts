import { describe, expect, it } from "vitest";
import { capitalize, cutAtWhitespace, takeChars, takeUnits, truncateChars, uncapitalize } from "./text";

describe("cutting text by characters", () => {
  it("counts code points and never leaves half a surrogate pair", () => {
    expect(takeChars("ab🎻cd", 3)).toBe("ab🎻");
    expect(truncateChars("🎻".repeat(10), 5)).toBe("🎻🎻...");
    expect(truncateChars("short", 5)).toBe("short");
    for (let n = 0; n < 12; n++) expect(truncateChars("x🎻".repeat(6), n)).not.toMatch(/\p{Cs}/u);
  });
});

describe("first letter case", () => {
  it("changes the first character only, and leaves an empty text empty", () => {
    expect(capitalize("lives in Porto")).toBe("Lives in Porto");
    expect(uncapitalize("Self-employed BMW mechanic")).toBe("self-employed BMW mechanic");
    expect(capitalize("")).toBe("");
    expect(uncapitalize("")).toBe("");
  });
});

describe("cutting text into bounded pieces", () => {
  it("takeUnits counts UTF-16 units (what .length and zod count) and drops a half surrogate pair", () => {
    expect(takeUnits("abcdef", 4)).toBe("abcd");
    expect(takeUnits("a🎻b", 2)).toBe("a");
    expect(takeUnits("short", 9)).toBe("short");
  });

  it("cutAtWhitespace: pieces of at most max units, cut after whitespace when there is some, joined back to the text", () => {
    const text = "I live in Lisbon and work at a bakery near the river";
    const pieces = cutAtWhitespace(text, 12);
    expect(pieces.join("")).toBe(text);
    expect(pieces.every((piece) => piece.length <= 12)).toBe(true);
    expect(pieces.slice(0, -1).every((piece) => /\s$/.test(piece))).toBe(true);
    const emoji = "🎻".repeat(25);
    const cut = cutAtWhitespace(emoji, 7);
    expect(cut.join("")).toBe(emoji);
    expect(cut.every((piece) => piece.length <= 7 && !/\p{Cs}/u.test(piece))).toBe(true);
    expect(cutAtWhitespace("short", 10)).toEqual(["short"]);
  });
});
