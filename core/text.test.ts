import { describe, expect, it } from "vitest";
import { capitalize, takeChars, truncateChars, uncapitalize } from "./text";

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
