import { describe, expect, it } from "vitest";
import { composeOfflineReply, memoryLinesOf } from "./chat";

describe("memoryLinesOf", () => {
  it("reads the bullet lines, separating a formatter title prefix from the content", () => {
    const system = [
      "You are Lifeline.",
      "• Drink preference: Prefers green tea",
      "  • Lives in Berlin",
      "- not a memory",
      "•",
      "• Call mom: Needs to call their mom by 2026-12-04",
    ].join("\n");
    expect(memoryLinesOf(system)).toEqual([
      { line: "Drink preference: Prefers green tea", content: "Prefers green tea" },
      { line: "Lives in Berlin", content: "Lives in Berlin" },
      { line: "Call mom: Needs to call their mom by 2026-12-04", content: "Needs to call their mom by 2026-12-04" },
    ]);
  });
});

describe("composeOfflineReply", () => {
  it("prefers the most similar memory and leaves unrelated ones out", () => {
    const system = "• Prefers green tea\n• Works as a nurse\n• Dog's name: Has a dog named Rex";
    expect(composeOfflineReply({ system, userMessage: "What's my pet called?" })).toBe(
      "From what you've told me, you have a dog named Rex.",
    );
  });

  it("quotes a memory it cannot safely rephrase instead of guessing", () => {
    expect(composeOfflineReply({ system: "• Maya is a doctor", userMessage: "What does Maya do?" })).toBe(
      'From what you\'ve told me, you told me "Maya is a doctor".',
    );
  });

  it("keeps a truncated memory's ellipsis rather than adding a period", () => {
    const reply = composeOfflineReply({
      system: "• Loves hiking in the Alps and the...",
      userMessage: "Do I like hiking?",
    });
    expect(reply).toBe("From what you've told me, you love hiking in the Alps and the...");
  });

  it("greets back, naming itself as the offline model", () => {
    expect(composeOfflineReply({ system: "• Prefers green tea", userMessage: "Hi there!" })).toMatch(
      /^Hello! I'm Lifeline's offline model \(no API key is configured\)/,
    );
  });

  it("resolves relative dates in an acknowledgement against the system prompt's current date", () => {
    const reply = composeOfflineReply({
      system: "Current date: 2026-11-30",
      userMessage: "remind me to call mom by Friday",
    });
    expect(reply).toMatch(/^Thanks for telling me: you need to call mom by 2026-12-04\. /);
  });
});

describe("composeOfflineReply with characters outside the BMP", () => {
  it("never cuts through a surrogate pair (a lone surrogate cannot be stored)", () => {
    const emoji = "🎻".repeat(400);
    for (const [system, userMessage] of [
      [`• ${emoji}`, "🎻🎻🎻"],
      [`• Hobby: plays ${emoji}`, "what do you remember about me?"],
      ["You are Lifeline.", emoji],
    ] as const) {
      const reply = composeOfflineReply({ system, userMessage });
      expect(reply).not.toMatch(/\p{Cs}/u); // no lone surrogate
    }
  });
});
