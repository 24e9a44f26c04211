import { countTokens as countBpeTokens, encode } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { textCostConfig } from "@/core/config";
import { boundedPieces, countTokens, truncateToTokens } from "./tokens";

const plain = { disallowedSpecial: new Set<string>() };

describe("the tokenizer, bounded per pre-token", () => {
  it("counts ordinary text exactly as o200k_base does (no pre-token is long enough to be cut)", () => {
    for (const text of [
      "Hello there, I'm Ana — I live in Lisbon!\n\n  My 3 cats: 🐱🐱 and 東京.  ",
      "<|endoftext|> is ordinary text here",
      "Café ☕️ at 09:30, then 12,000 steps.",
    ]) {
      expect(countTokens(text)).toBe(countBpeTokens(text, plain));
      expect(boundedPieces(text)).toEqual([text]);
    }
  });

  it("cuts a long run of one kind into pieces of maxPretokenChars, never through a surrogate pair", () => {
    const max = textCostConfig.maxPretokenChars;
    for (const text of [
      "😀".repeat(500),
      "我喜欢徒步旅行".repeat(100),
      "a".repeat(1000),
      `ok ${"🎻".repeat(200)} done`,
    ]) {
      const pieces = boundedPieces(text);
      expect(pieces.join("")).toBe(text);
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.every((piece) => !/^[\uDC00-\uDFFF]/.test(piece) && !/[\uD800-\uDBFF]$/.test(piece))).toBe(true);
      expect(pieces.filter((piece) => !/\s/.test(piece)).every((piece) => piece.length <= max)).toBe(true);
      // Within a few tokens per piece of the encoding's own count.
      expect(Math.abs(countTokens(text) - countBpeTokens(text, plain))).toBeLessThanOrEqual(pieces.length);
    }
  });

  it("truncates to at most maxTokens tokens, and leaves text that fits unchanged", () => {
    const long = "😀".repeat(2000);
    const cut = truncateToTokens(long, 50);
    expect(long.startsWith(cut)).toBe(true);
    expect(encode(cut, plain).length).toBeLessThanOrEqual(50);
    expect(truncateToTokens("short text", 50)).toBe("short text");
  });
});
