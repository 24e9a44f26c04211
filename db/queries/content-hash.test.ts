import { describe, expect, it } from "vitest";
import { memoryContentHash, messageContentHash, normaliseForHash } from "./content-hash";

describe("an imported message's content hash", () => {
  const message = { role: "user", text: "I live in Lisbon.", createdAt: "2023-11-14T22:13:20.500Z" };

  it("is the same for the same words however the whitespace or Unicode form differs", () => {
    expect(normaliseForHash(" I  live\n\tin\r\nLisbon. ")).toBe("I live in Lisbon.");
    expect(messageContentHash({ ...message, text: "  I live\nin  Lisbon. " })).toBe(messageContentHash(message));
    expect(messageContentHash({ ...message, text: "Caf\u0065\u0301" })).toBe(
      messageContentHash({ ...message, text: "Caf\u00e9" }),
    );
    // The same instant written another way.
    expect(messageContentHash({ ...message, createdAt: "2023-11-15T00:13:20.5+02:00" })).toBe(
      messageContentHash(message),
    );
  });

  it("differs by role, by time and by words; a Unicode space is a character, not whitespace", () => {
    const hash = messageContentHash(message);
    expect(messageContentHash({ ...message, role: "assistant" })).not.toBe(hash);
    expect(messageContentHash({ ...message, createdAt: "2023-11-14T22:13:21.500Z" })).not.toBe(hash);
    expect(messageContentHash({ ...message, text: "I live in Porto." })).not.toBe(hash);
    expect(messageContentHash({ ...message, text: "I live in\u00a0Lisbon." })).not.toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("hashes a memory's content alone, normalised the same way", () => {
    expect(memoryContentHash(" Likes  tea ")).toBe(memoryContentHash("Likes tea"));
    expect(memoryContentHash("Likes tea")).not.toBe(memoryContentHash("Likes coffee"));
  });
});
