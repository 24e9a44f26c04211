import { describe, expect, it } from "vitest";
import { promptText, scriptedModel } from "@/tests/fixtures/jobs";
import { MalformedOutputError } from "./call";
import { currentDateOf, extractMemories, provenanceOf } from "./extract";
import { EXTRACTION_OUTPUT_NAME } from "./schema";

const exchange = {
  currentDate: "2025-06-02",
  previousMessages: [],
  userMessage: "I’m  allergic to peanuts and my sister's name is Maya.",
  assistantMessage: "Thanks! You might enjoy green tea, by the way.",
};

function candidate(evidence: { role: "user" | "assistant"; quote: string }[], content = "Is allergic to peanuts") {
  return {
    title: "Allergy",
    content,
    type: "fact" as const,
    importance: 0.9,
    tags: ["health"],
    confidence: 0.95,
    isActionable: false,
    deadline: null,
    evidence,
  };
}

describe("provenanceOf", () => {
  it("is user_stated when a user quote occurs in the user's message (case, spaces and quote marks aside)", () => {
    expect(provenanceOf(candidate([{ role: "user", quote: "i'm allergic to PEANUTS" }]), exchange.userMessage)).toBe(
      "user_stated",
    );
  });

  it("is assistant_suggested when the only evidence is the assistant's", () => {
    expect(
      provenanceOf(candidate([{ role: "assistant", quote: "You might enjoy green tea" }]), exchange.userMessage),
    ).toBe("assistant_suggested");
  });

  it("is assistant_suggested when a 'user' quote is not in the user's message (the model cannot vouch for it)", () => {
    expect(provenanceOf(candidate([{ role: "user", quote: "I love green tea" }]), exchange.userMessage)).toBe(
      "assistant_suggested",
    );
    expect(provenanceOf(candidate([{ role: "user", quote: "   " }]), exchange.userMessage)).toBe("assistant_suggested");
  });
});

describe("extractMemories", () => {
  it("asks for the memory_extraction output at temperature 0.1 with the current date, and marks provenance", async () => {
    const reply = {
      memories: [
        candidate([{ role: "user", quote: "allergic to peanuts" }]),
        candidate([{ role: "assistant", quote: "You might enjoy green tea" }], "Might enjoy green tea"),
      ],
    };
    const model = scriptedModel({ [EXTRACTION_OUTPUT_NAME]: () => JSON.stringify(reply) });

    const memories = await extractMemories(model, exchange);

    expect(memories.map((m) => [m.content, m.provenance, m.status])).toEqual([
      ["Is allergic to peanuts", "user_stated", "active"],
      ["Might enjoy green tea", "assistant_suggested", "pending_confirmation"],
    ]);
    const [call] = model.doGenerateCalls;
    expect(call?.responseFormat).toMatchObject({ type: "json", name: EXTRACTION_OUTPUT_NAME });
    expect(call?.temperature).toBe(0.1);
    expect(call && promptText(call)).toMatch(/^Current date: 2025-06-02 \(Monday\)$/m);
  });

  it("runs end to end on the offline model: user statements only, never the assistant's suggestion", async () => {
    const userMessage = "I'm allergic to peanuts and my sister's name is Maya.";
    const memories = await extractMemories(scriptedModel(), { ...exchange, userMessage });
    expect(memories.map((m) => [m.content, m.provenance])).toEqual([
      ["Is allergic to peanuts", "user_stated"],
      ["Sister's name is Maya", "user_stated"],
    ]);
  });

  it("returns no memories for an exchange with nothing worth keeping", async () => {
    expect(await extractMemories(scriptedModel(), { ...exchange, userMessage: "What time is it in Tokyo?" })).toEqual(
      [],
    );
  });

  it.each([
    ["not JSON", '{"memories": [', /could not parse the response/],
    ["JSON of the wrong shape", '{"memories": [{"title": 42}]}', /did not match schema \(memories\.0\.title: /],
    ["a bare array", "[]", /did not match schema/],
  ])("turns %s into a MalformedOutputError, never into 'no memory'", async (_, text, message) => {
    const model = scriptedModel({ [EXTRACTION_OUTPUT_NAME]: () => text });
    const failure = extractMemories(model, exchange);
    await expect(failure).rejects.toBeInstanceOf(MalformedOutputError);
    await expect(failure).rejects.toThrow(message);
  });

  it("lets model and network errors through unchanged", async () => {
    const model = scriptedModel({
      [EXTRACTION_OUTPUT_NAME]: () => {
        throw new Error("429 Too Many Requests");
      },
    });
    await expect(extractMemories(model, exchange)).rejects.toThrow("429 Too Many Requests");
  });
});

describe("currentDateOf", () => {
  it("is the UTC calendar date", () => {
    expect(currentDateOf(new Date("2025-12-31T23:30:00-02:00"))).toBe("2026-01-01");
  });
});
