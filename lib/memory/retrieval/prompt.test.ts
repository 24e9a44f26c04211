import { describe, expect, it } from "vitest";
import { CHAT_MODES } from "@/db/schema";
import { countTokens } from "@/lib/memory/tokens";
import { UNMATCHED_MEMORIES_HEADING } from "@/lib/offline/prompt-readers";
import { MODE_INSTRUCTIONS } from "./modes";
import { buildPrompt, type HistoryMessage, type PromptInput, renderMemorySection, selectHistory } from "./prompt";

const history: HistoryMessage[] = [
  { id: "h1", role: "user", content: "Hi" },
  { id: "h2", role: "assistant", content: "Hello! How can I help you today with anything at all?" },
  { id: "h3", role: "user", content: "I am planning a trip to Lisbon in May." },
  { id: "h4", role: "assistant", content: "Lovely. What would you like to see there?" },
];
const tokensOf = (id: string) => countTokens(history.find((m) => m.id === id)?.content ?? "");

const input = (overrides: Partial<PromptInput> = {}): PromptInput => ({
  mode: "conversational",
  userName: "Ada",
  memory: { status: "ok", lines: ["• Tea: Prefers green tea", "• Lives in Porto"] },
  history,
  message: "Any tips for the trip?",
  historyTokenBudget: 2000,
  ...overrides,
});

describe("selectHistory", () => {
  it("takes everything that fits, in chronological order", () => {
    const result = selectHistory(history, 2000);
    expect(result.included.map((m) => m.id)).toEqual(["h1", "h2", "h3", "h4"]);
    expect(result.tokens).toBe(["h1", "h2", "h3", "h4"].reduce((sum, id) => sum + tokensOf(id), 0));
  });

  it("includes a message that fills the budget exactly and stops at the first that does not fit", () => {
    const exact = tokensOf("h4") + tokensOf("h3");
    expect(selectHistory(history, exact).included.map((m) => m.id)).toEqual(["h3", "h4"]);
    const result = selectHistory(history, exact - 1);
    expect(result.included.map((m) => m.id)).toEqual(["h4"]);
    expect(result.tokens).toBe(tokensOf("h4"));
    expect(result.entries).toEqual([
      { id: "h1", role: "user", tokens: null, included: false },
      { id: "h2", role: "assistant", tokens: null, included: false },
      { id: "h3", role: "user", tokens: tokensOf("h3"), included: false },
      { id: "h4", role: "assistant", tokens: tokensOf("h4"), included: true },
    ]);
  });

  it("never skips ahead to a smaller, older message once one did not fit", () => {
    // h2 is too large for what remains after h4 and h3, but h1 ("Hi") alone would fit.
    const budget = tokensOf("h4") + tokensOf("h3") + tokensOf("h1");
    expect(tokensOf("h2")).toBeGreaterThan(tokensOf("h1"));
    expect(selectHistory(history, budget).included.map((m) => m.id)).toEqual(["h3", "h4"]);
  });

  it("sends no history with a budget smaller than the newest message", () => {
    expect(selectHistory(history, tokensOf("h4") - 1).included).toEqual([]);
    expect(selectHistory([], 100)).toEqual({ included: [], entries: [], tokens: 0 });
  });
});

describe("buildPrompt", () => {
  it("sends a system message, the history as chat messages, then the new user message", () => {
    const prompt = buildPrompt(input());
    expect(prompt.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
    expect(prompt.messages.slice(1)).toEqual([
      ...history.map(({ role, content }) => ({ role, content })),
      { role: "user", content: "Any tips for the trip?" },
    ]);
    const system = prompt.messages[0]?.content;
    expect(system).toContain(MODE_INSTRUCTIONS.conversational);
    expect(system).toContain("You are talking with Ada.");
    expect(system).toContain("## What you remember about Ada\n• Tea: Prefers green tea\n• Lives in Porto\n");
    expect(system).toContain("may be outdated");
  });

  it("counts tokens per section; the memory section is part of the system message", () => {
    const prompt = buildPrompt(input());
    const system = String(prompt.messages[0]?.content);
    const memory = renderMemorySection(input().memory, "Ada");
    expect(system).toContain(memory);
    expect(prompt.tokens).toEqual({
      system: countTokens(system),
      memory: countTokens(memory),
      history: selectHistory(history, 2000).tokens,
      userMessage: countTokens("Any tips for the trip?"),
      total: countTokens(system) + selectHistory(history, 2000).tokens + countTokens("Any tips for the trip?"),
    });
    expect(prompt.tokens.memory).toBeGreaterThan(0);
    expect(prompt.tokens.system).toBeGreaterThan(prompt.tokens.memory);
  });

  it("reports which history messages were sent", () => {
    const prompt = buildPrompt(input({ historyTokenBudget: tokensOf("h4") }));
    expect(prompt.messages).toHaveLength(3);
    expect(prompt.history.map((h) => h.included)).toEqual([false, false, false, true]);
  });

  it("falls back to 'the user' without a name", () => {
    const system = String(buildPrompt(input({ userName: "  " })).messages[0]?.content);
    expect(system).toContain("## What you remember about the user");
    expect(system).not.toContain("You are talking with");
  });

  it("counts special-token text in a message as plain text", () => {
    expect(buildPrompt(input({ message: "what is <|endoftext|>?" })).tokens.userMessage).toBeGreaterThan(3);
  });

  it("has a distinct system prompt per mode; the agent's covers Gmail tools and the approval before sending", () => {
    const systems = CHAT_MODES.map((mode) => String(buildPrompt(input({ mode })).messages[0]?.content));
    expect(new Set(systems).size).toBe(CHAT_MODES.length);
    expect(MODE_INSTRUCTIONS.agent).toMatch(/Gmail/);
    expect(MODE_INSTRUCTIONS.agent).toMatch(/send_email never sends.*approves, edits or declines/);
    expect(MODE_INSTRUCTIONS.agent).toMatch(/never say it was sent/);
  });
});

describe("renderMemorySection", () => {
  it("says in one line that nothing was found, only when retrieval ran and found nothing", () => {
    const none = renderMemorySection({ status: "ok", lines: [] }, "Ada");
    expect(none).toBe("You have no saved memories about Ada that relate to this message.");
  });

  it("puts the lines not matched to the message (pinned, from this conversation) last, under their own heading", () => {
    const section = renderMemorySection(
      {
        status: "ok",
        lines: ["• Pinned: Is vegetarian", "• Tea: Prefers green tea"],
        unmatchedLines: ["• Pinned: Is vegetarian"],
      },
      "Ada",
    );
    expect(section).toContain(
      `## What you remember about Ada\n• Tea: Prefers green tea\n${UNMATCHED_MEMORIES_HEADING}\n• Pinned: Is vegetarian\n`,
    );
    // Every line matched: no heading, the lines as they were.
    expect(
      renderMemorySection({ status: "ok", lines: ["• Tea: Prefers green tea"], unmatchedLines: [] }, "Ada"),
    ).not.toContain(UNMATCHED_MEMORIES_HEADING);
  });

  it("says memory is off when disabled", () => {
    expect(renderMemorySection({ status: "disabled" }, "Ada")).toMatch(/^Memory is off for this conversation/);
  });

  it("is empty on failure: a failure is never presented as 'nothing matched'", () => {
    expect(renderMemorySection({ status: "failed" }, "Ada")).toBe("");
    const prompt = buildPrompt(input({ memory: { status: "failed" } }));
    expect(prompt.tokens.memory).toBe(0);
    expect(prompt.messages[0]?.content).toBe(`${MODE_INSTRUCTIONS.conversational}\n\nYou are talking with Ada.`);
  });
});
