import { describe, expect, it } from "vitest";
import { MEMORY_OFF_NOTE } from "@/lib/memory/retrieval/prompt";
import { composeOfflineReply, composeToolAnswer, decideMemoryToolCall, memoryLinesOf } from "./chat";

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

describe("composeOfflineReply never contradicts what it received", () => {
  const notice = "I'm Lifeline's offline model";

  it("says it is the offline model once per conversation: not when an earlier answer in the prompt did", () => {
    const first = composeOfflineReply({ system: "You are Lifeline.", userMessage: "How tall is Everest?" });
    expect(first).toContain(notice);
    const second = composeOfflineReply({
      system: "You are Lifeline.",
      userMessage: "And K2?",
      assistantMessages: ["From what you've told me, you like tea.", first],
    });
    expect(second).not.toContain(notice);
    expect(second).toBe('You asked: "And K2?". I don\'t have any memories related to this yet.');
  });

  it("uses the memories it was sent even when none relates to the message", () => {
    const reply = composeOfflineReply({
      system: "• Diet: Is vegetarian\n• Lives in Berlin",
      userMessage: "Plan my week",
    });
    expect(reply).not.toMatch(/don't have any memories/);
    expect(reply).toContain("I do remember that you are vegetarian and you live in Berlin.");
  });

  it("with memory off, never thanks the user as if it saved something", () => {
    const system = `You are Lifeline.\n${MEMORY_OFF_NOTE}: you cannot see anything from Sam's other conversations.`;
    const reply = composeOfflineReply({ system, userMessage: "I'm vegetarian and I live in Berlin" });
    expect(reply).not.toMatch(/Thanks for telling me/);
    expect(reply).toMatch(
      /^You said: "I'm vegetarian and I live in Berlin"\. Memory is off for this chat: .*won't remember this\./,
    );
    expect(composeOfflineReply({ system, userMessage: "hello" })).toMatch(/won't remember what you tell me here/);
  });
});

describe("decideMemoryToolCall and composeToolAnswer", () => {
  const offered = ["search_memories", "list_memories"];

  it("lists memories for overview questions only, and only when list_memories is offered", () => {
    expect(decideMemoryToolCall("What do you remember about me?", offered)).toEqual({
      toolName: "list_memories",
      input: {},
    });
    expect(decideMemoryToolCall("what do you know about me", offered)?.input).toEqual({});
    expect(decideMemoryToolCall("What are my goals?", offered)?.input).toEqual({ type: "goal" });
    expect(decideMemoryToolCall("What do you know about Paris?", offered)).toBeNull();
    expect(decideMemoryToolCall("What tea do I like?", offered)).toBeNull();
    expect(decideMemoryToolCall("What do you remember about me?", ["search_memories"])).toBeNull();
  });

  it("lists each returned memory once, and reports a failed look-up instead of 'nothing saved'", () => {
    const memory = { id: "m1", title: null, content: "Prefers green tea" };
    const answer = composeToolAnswer({
      results: [
        { toolName: "list_memories", input: {}, output: { memories: [memory], note: "1 memory" } },
        { toolName: "search_memories", input: undefined, output: { memories: [memory], note: "1 memory" } },
      ],
    });
    expect(answer).toBe("Here's what I remember about you:\n\n- You prefer green tea.");
    const failed = composeToolAnswer({
      results: [{ toolName: "list_memories", input: { type: "goal" }, output: null, error: "database down" }],
      assistantMessages: [
        "I'm Lifeline's offline model (no API key is configured), so I can only answer from what you've told me.",
      ],
    });
    expect(failed).toBe("I don't have any goals saved for you yet (looking them up failed: database down).");
  });
});
