import { describe, expect, it } from "vitest";
import { historySummary } from "./history-summary";

describe("historySummary", () => {
  it("says how much of the history was sent, within which budget", () => {
    const history = [
      { id: "a", role: "user" as const, tokens: 12, included: true },
      { id: "b", role: "assistant" as const, tokens: 30, included: true },
    ];
    expect(historySummary(history, { tokens: 42, budget: 2_000 })).toEqual([
      "2 of 2 earlier messages sent: 42 of a 2,000-token budget.",
    ]);
  });

  it("names every message that was cut to fit, and how much of it was left out", () => {
    const history = [
      { id: "a", role: "user" as const, tokens: null, included: false },
      { id: "b", role: "assistant" as const, tokens: 900, included: false },
      {
        id: "c",
        role: "user" as const,
        tokens: 3_100,
        included: true,
        cut: { sentTokens: 1_000, omittedTokens: 2_117 },
      },
      { id: "d", role: "user" as const, tokens: 8, included: true },
      {
        id: "e",
        role: "assistant" as const,
        tokens: 2_519,
        included: true,
        cut: { sentTokens: 990, omittedTokens: 1_540 },
      },
    ];
    expect(historySummary(history, { tokens: 1_998, budget: 2_000 })).toEqual([
      "3 of 5 earlier messages sent: 1,998 of a 2,000-token budget.",
      "Message 3 of 5 (yours) was cut to fit: 2,117 of its 3,100 tokens were left out, its start and end sent.",
      "Message 5 of 5 (an answer) was cut to fit: 1,540 of its 2,519 tokens were left out, its start and end sent.",
      "The 2 oldest messages did not fit and were left out.",
    ]);
  });

  it("says when no earlier message was sent", () => {
    expect(historySummary([], { tokens: 0, budget: 2_000 })).toEqual(["No earlier messages: this was the first."]);
    expect(
      historySummary([{ id: "a", role: "assistant", tokens: 500, included: false }], { tokens: 0, budget: 10 }),
    ).toEqual([
      "0 of 1 earlier message sent: 0 of a 10-token budget.",
      "The oldest message did not fit and was left out.",
    ]);
  });
});
