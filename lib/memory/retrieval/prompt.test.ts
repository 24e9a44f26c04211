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
    expect(result.included).toEqual(history);
    expect(result.tokens).toBe(["h1", "h2", "h3", "h4"].reduce((sum, id) => sum + tokensOf(id), 0));
  });

  it("includes a message that fills the budget exactly and drops the older ones from the first that does not fit", () => {
    const exact = tokensOf("h4") + tokensOf("h3");
    expect(selectHistory(history, exact).included.map((m) => m.id)).toEqual(["h3", "h4"]);
    const budget = exact + tokensOf("h2") - 1;
    const result = selectHistory(history, budget);
    expect(result.included.map((m) => m.id)).toEqual(["h3", "h4"]);
    expect(result.tokens).toBe(exact);
    expect(result.entries).toEqual([
      { id: "h1", role: "user", tokens: null, included: false },
      { id: "h2", role: "assistant", tokens: tokensOf("h2"), included: false },
      { id: "h3", role: "user", tokens: tokensOf("h3"), included: true },
      { id: "h4", role: "assistant", tokens: tokensOf("h4"), included: true },
    ]);
  });

  it("never skips ahead to a smaller, older message once one did not fit", () => {
    // h2 is too large for what remains after h4 and h3, but h1 ("Hi") alone would fit.
    const budget = tokensOf("h4") + tokensOf("h3") + tokensOf("h1");
    expect(tokensOf("h2")).toBeGreaterThan(tokensOf("h1"));
    expect(selectHistory(history, budget).included.map((m) => m.id)).toEqual(["h3", "h4"]);
  });

  it("keeps the newest exchange when its answer alone is over the budget: the answer's start and end, and how much was left out", () => {
    const answer = longText("answer", 2_500);
    const conversation: HistoryMessage[] = [
      ...history,
      { id: "u5", role: "user", content: "Write me the whole script." },
      { id: "a5", role: "assistant", content: answer },
    ];
    const result = selectHistory(conversation, 2_000);
    expect(result.included.map((m) => m.id)).toEqual(["u5", "a5"]);
    expect(result.included[0]?.content).toBe("Write me the whole script.");
    const sent = result.included[1]?.content ?? "";
    const entry = result.entries.find((e) => e.id === "a5");
    expect(entry?.included).toBe(true);
    expect(entry?.tokens).toBe(countTokens(answer));
    const omitted = entry?.cut?.omittedTokens ?? 0;
    expect(omitted).toBeGreaterThan(500);
    expect(sent).toContain(`[… ${omitted.toLocaleString("en-US")} tokens of this message left out …]`);
    const [head, tail] = sent.split(/\n*\[… [\d,]+ tokens of this message left out …\]\n*/);
    expect(answer.startsWith(head ?? "-")).toBe(true);
    expect(answer.endsWith(tail ?? "-")).toBe(true);
    expect((head ?? "").length).toBeGreaterThan(1_000);
    expect((tail ?? "").length).toBeGreaterThan(1_000);
    expect(entry?.cut?.sentTokens).toBe(countTokens(sent));
    expect(result.tokens).toBe(countTokens("Write me the whole script.") + countTokens(sent));
    expect(result.tokens).toBeLessThanOrEqual(2_000);
    // What was sent of the answer plus what was left out is the answer (the marker aside).
    expect(countTokens(head ?? "") + countTokens(tail ?? "") + omitted).toBeGreaterThanOrEqual(countTokens(answer) - 2);
  });

  it("shares the budget within the newest exchange: a short message whole, the long one cut", () => {
    const question = longText("question", 3_000);
    const conversation: HistoryMessage[] = [
      { id: "u1", role: "user", content: question },
      { id: "a1", role: "assistant", content: "Here is a summary of it." },
    ];
    const result = selectHistory(conversation, 1_000);
    expect(result.included.map((m) => m.id)).toEqual(["u1", "a1"]);
    expect(result.included[1]?.content).toBe("Here is a summary of it.");
    expect(result.entries[0]?.cut?.omittedTokens).toBeGreaterThan(2_000);
    expect(result.entries[1]?.cut).toBeUndefined();
    expect(result.tokens).toBeLessThanOrEqual(1_000);
  });

  it("cuts an older message longer than half the budget to that half and goes on to the ones before it", () => {
    const pasted = longText("pasted", 1_500);
    const conversation: HistoryMessage[] = [
      { id: "u1", role: "user", content: "I will paste my notes." },
      { id: "a1", role: "assistant", content: "Go ahead." },
      { id: "u2", role: "user", content: pasted },
      { id: "a2", role: "assistant", content: "Got them." },
      { id: "u3", role: "user", content: "What was the second point?" },
      { id: "a3", role: "assistant", content: "That the trip is in May." },
    ];
    const result = selectHistory(conversation, 2_000);
    expect(result.included.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2", "u3", "a3"]);
    const cut = result.entries.find((e) => e.id === "u2");
    expect(cut?.cut?.sentTokens).toBeLessThanOrEqual(1_000);
    expect(cut?.cut?.sentTokens).toBeGreaterThan(900);
    expect(result.entries.filter((e) => e.cut).map((e) => e.id)).toEqual(["u2"]);
    expect(result.tokens).toBeLessThanOrEqual(2_000);
  });

  it("never sends more than the budget, and counts what it sends", () => {
    const conversation: HistoryMessage[] = [
      { id: "u1", role: "user", content: longText("first", 900) },
      { id: "a1", role: "assistant", content: longText("second", 700) },
      { id: "u2", role: "user", content: "Shorter, please." },
      { id: "a2", role: "assistant", content: longText("third", 1_200) },
      { id: "u3", role: "user", content: longText("fourth", 400) },
      { id: "a3", role: "assistant", content: longText("fifth", 2_600) },
    ];
    for (const budget of [40, 100, 333, 1_000, 2_000, 4_000, 10_000]) {
      const result = selectHistory(conversation, budget);
      const sent = result.included.reduce((sum, m) => sum + countTokens(m.content), 0);
      expect(result.tokens, `budget ${budget}`).toBe(sent);
      expect(result.tokens, `budget ${budget}`).toBeLessThanOrEqual(budget);
      // Whatever is sent is a run of the newest messages, the newest exchange always among them.
      const ids = result.included.map((m) => m.id);
      expect(ids, `budget ${budget}`).toEqual(conversation.slice(conversation.length - ids.length).map((m) => m.id));
      if (budget >= 100) expect(ids.slice(-2), `budget ${budget}`).toEqual(["u3", "a3"]);
    }
  });

  it("budgets a message by its stored token count, counted when it was written, and counts only one without", () => {
    // Stored counts of 100 each: h3 and h4 leave 50 of 250, too few for h2 — whatever their text counts.
    const stored: HistoryMessage[] = history.map((m) => ({ ...m, tokens: 100 }));
    const result = selectHistory(stored, 250);
    expect(result.included.map((m) => m.id)).toEqual(["h3", "h4"]);
    expect(result.entries.map((e) => e.tokens)).toEqual([null, 100, 100, 100]);
    expect(result.tokens).toBe(200);
    expect(selectHistory(history, 250).entries.map((e) => e.tokens)).toEqual(["h1", "h2", "h3", "h4"].map(tokensOf));
  });

  it("cuts a long message from its start and end alone, the left-out count from its stored count", () => {
    const pasted = longText("pasted", 20_000);
    const total = countTokens(pasted);
    const conversation: HistoryMessage[] = [
      { id: "u1", role: "user", content: pasted, tokens: total },
      { id: "a1", role: "assistant", content: "Noted.", tokens: countTokens("Noted.") },
    ];
    const result = selectHistory(conversation, 2_000);
    const sent = result.included[0]?.content ?? "";
    const [head, tail] = sent.split(/\n*\[… [\d,]+ tokens of this message left out …\]\n*/);
    expect(pasted.startsWith(head ?? "-")).toBe(true);
    expect(pasted.endsWith(tail ?? "-")).toBe(true);
    expect(result.entries[0]?.cut?.omittedTokens).toBe(total - countTokens(head ?? "") - countTokens(tail ?? ""));
    expect(result.tokens).toBeLessThanOrEqual(2_000);
  });

  it("sends nothing of a message whose share of the budget cannot hold its start, its end and the marker", () => {
    const conversation: HistoryMessage[] = [{ id: "a1", role: "assistant", content: longText("answer", 500) }];
    expect(selectHistory(conversation, 10).included).toEqual([]);
    expect(selectHistory(conversation, 10).tokens).toBe(0);
    expect(selectHistory([], 100)).toEqual({ included: [], entries: [], tokens: 0 });
  });
});

/** Distinct words until about `tokens` tokens (each "<word>-<n>" is a few tokens). */
function longText(word: string, tokens: number): string {
  const parts: string[] = [];
  for (let i = 0; countTokens(parts.join(" ")) < tokens; i++)
    parts.push(...Array.from({ length: 50 }, (_, j) => `${word}${i * 50 + j}`));
  let text = parts.join(" ");
  while (countTokens(text) > tokens) text = text.slice(0, text.lastIndexOf(" "));
  return text;
}

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
    const prompt = buildPrompt(input({ historyTokenBudget: tokensOf("h4") + tokensOf("h3") }));
    expect(prompt.messages).toHaveLength(4);
    expect(prompt.history.map((h) => h.included)).toEqual([false, false, true, true]);
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

  it("says memory is being re-indexed, never that nothing relates, while memories wait for re-embedding", () => {
    const none = renderMemorySection({ status: "ok", lines: [], waitingForReembedding: 3 }, "Ada");
    expect(none).not.toMatch(/no saved memories/i);
    expect(none).toBe(
      "Ada's memories are being re-indexed: 3 of them cannot be searched yet, so you cannot tell whether any relate to this message. Say so if Ada asks what you remember.",
    );
    const one = renderMemorySection({ status: "ok", lines: [], waitingForReembedding: 1 }, "Ada");
    expect(one).toContain("Ada's memories are being re-indexed: 1 of them cannot be searched yet");
    const some = renderMemorySection(
      { status: "ok", lines: ["• Tea: Prefers green tea"], waitingForReembedding: 2 },
      "Ada",
    );
    expect(some).toContain("## What you remember about Ada\n• Tea: Prefers green tea\n");
    expect(some).toContain(
      "Ada's memories are being re-indexed: 2 of them cannot be searched yet, so these notes may be incomplete.",
    );
    expect(renderMemorySection({ status: "ok", lines: [], waitingForReembedding: 0 }, "Ada")).toBe(
      "You have no saved memories about Ada that relate to this message.",
    );
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
