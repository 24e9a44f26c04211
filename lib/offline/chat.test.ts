import { describe, expect, it } from "vitest";
import { renderMemorySection } from "@/lib/memory/retrieval/prompt";
import { composeOfflineReply, composeToolAnswer, decideMemoryToolCall, memoryLinesOf } from "./chat";
import { MEMORY_OFF_NOTE } from "./prompt-readers";

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
      { line: "Drink preference: Prefers green tea", content: "Prefers green tea", matched: true },
      { line: "Lives in Berlin", content: "Lives in Berlin", matched: true },
      {
        line: "Call mom: Needs to call their mom by 2026-12-04",
        content: "Needs to call their mom by 2026-12-04",
        matched: true,
      },
    ]);
  });

  it("tells the lines retrieval matched to the message from those only at hand, as the prompt renders them", () => {
    const system = renderMemorySection(
      {
        status: "ok",
        lines: ["• Diet: Is vegetarian", "• Lives in Berlin"],
        unmatchedLines: ["• Diet: Is vegetarian"],
      },
      "Sam",
    );
    expect(memoryLinesOf(system).map(({ content, matched }) => [content, matched])).toEqual([
      ["Lives in Berlin", true],
      ["Is vegetarian", false],
    ]);
  });
});

describe("composeOfflineReply", () => {
  it("answers with the most similar memory retrieval matched, and leaves unrelated matched ones out", () => {
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
      /^Hello! I'm Lifeline's offline model, so I can only answer from what you've told me; for other questions, whoever runs this Lifeline can connect a real model/,
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
    expect(second).toBe("Nothing you've told me helps with that.");
  });

  const prompt = (matched: string[], unmatched: string[] = []) =>
    `You are Lifeline.\n\n${renderMemorySection({ status: "ok", lines: [...unmatched, ...matched], unmatchedLines: unmatched }, "Sam")}`;

  // Input → output at the model boundary: the system prompt as assembleContext renders it.
  it.each([
    {
      case: "a memory retrieval matched answers, said plainly (no 'nothing answers this, but…')",
      system: prompt(["• Food allergy: Is allergic to peanuts"]),
      message: "What should I avoid eating?",
      reply: "From what you've told me, you are allergic to peanuts.",
    },
    {
      case: "a memory only from this conversation is not recited into an unrelated answer",
      system: prompt([], ["• Diet: Is vegetarian"]),
      message: "Are spiders insects?",
      reply: `Nothing you've told me helps with that. ${"I'm Lifeline's offline model"}`,
    },
    {
      case: "a matched memory does not answer a question that is not about the user and shares no word with it",
      system: prompt(["• Food allergy: Is allergic to peanuts"]),
      message: "Are spiders insects?",
      reply: `Nothing you've told me helps with that. ${"I'm Lifeline's offline model"}`,
    },
    {
      case: "a pinned memory at hand stays out of an answer a matched one gives",
      system: prompt(["• Dog's name: Has a dog named Rex"], ["• Diet: Is vegetarian"]),
      message: "What's my dog called?",
      reply: "From what you've told me, you have a dog named Rex.",
    },
    {
      case: "no memory at all: one line, what it is and how to connect a real model",
      system: prompt([]),
      message: "How tall is Everest?",
      reply:
        "Nothing you've told me helps with that. I'm Lifeline's offline model, so I can only answer from what you've told me; for other questions, whoever runs this Lifeline can connect a real model (Settings → For administrators).",
    },
    {
      case: "a new fact is acknowledged, and a matched memory added",
      system: prompt(["• Home: Lives in Berlin"]),
      message: "I work in Berlin",
      reply: "Thanks for telling me: you work in Berlin. I also remember that you live in Berlin.",
    },
    {
      case: "a memory saved from this very message (a regenerated answer) is not recited back as remembered",
      system: prompt(["• Home: Lives in Lisbon"]),
      message: "I live in Lisbon",
      reply: "Thanks for telling me: you live in Lisbon. I'm Lifeline's offline model",
    },
  ])("$case", ({ system, message, reply }) => {
    const answer = composeOfflineReply({ system, userMessage: message });
    if (reply.endsWith("offline model")) expect(answer.startsWith(reply)).toBe(true);
    else expect(answer).toBe(reply);
    expect(answer).not.toMatch(/but I do remember|Nothing you've told me answers this directly/);
  });

  it("an overview question lists every memory of the prompt, matched or at hand", () => {
    const reply = composeOfflineReply({
      system: prompt(["• Home: Lives in Berlin"], ["• Diet: Is vegetarian"]),
      userMessage: "What do you know about me?",
    });
    expect(reply).toBe("From what you've told me, you live in Berlin and you are vegetarian.");
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
