import { describe, expect, it } from "vitest";
import { extractionPromptInput } from "@/tests/fixtures/extraction-prompt";
import { buildExtractionPrompt, EXTRACTION_SYSTEM_PROMPT } from "./prompt";

const input = extractionPromptInput;

describe("buildExtractionPrompt", () => {
  it("wraps each piece in its delimiter, after the current date", () => {
    const { system, prompt } = buildExtractionPrompt(input);
    expect(prompt).toMatch(/^Current date: 2026-11-30 \(Monday\)\n/);
    expect(prompt).toContain(
      "<previous_messages>\nuser: Hi!\n\nassistant: Hello! How can I help?\n</previous_messages>",
    );
    expect(prompt).toContain(`<user_message>\n${input.userMessage}\n</user_message>`);
    expect(prompt).toContain(`<assistant_message>\n${input.assistantMessage}\n</assistant_message>`);
    expect(system).toMatch(/zero memories is a valid/i);
    expect(system).toMatch(/never facts about the user/i);
    // Coordinated predicates are separate facts; a coordinated name, object list or subject is one.
    expect(system).toContain(`"I'm vegetarian and allergic to peanuts" is two memories`);
    expect(system).toMatch(
      /Keep one memory where the coordination is inside one thing: .*"My brother and I run a bakery"/,
    );
  });

  it("states today's weekday and what each weekday name means today, by the rule of docs/extraction.md § Dates", () => {
    // Tuesday 1 December 2026: the day "next Friday" was once saved as the 4th.
    const { system, prompt } = buildExtractionPrompt({ ...input, currentDate: "2026-12-01" });
    expect(prompt).toMatch(/^Current date: 2026-12-01 \(Tuesday\)$/m);
    expect(prompt).toContain("Friday = 2026-12-04, this Friday = 2026-12-04, next Friday = 2026-12-11");
    expect(prompt).toContain("Tuesday = 2026-12-08, this Tuesday = 2026-12-01, next Tuesday = 2026-12-08");
    expect(prompt).toContain("Monday = 2026-12-07, this Monday = 2026-12-07, next Monday = 2026-12-07");
    expect(prompt).toContain("Sunday = 2026-12-06, this Sunday = 2026-12-06, next Sunday = 2026-12-13");
    expect(system).toContain('"next Friday" is the Friday of next week');
  });

  it("says so when there are no previous messages, and names the user when known", () => {
    const { prompt } = buildExtractionPrompt({ ...input, previousMessages: [], userName: "Sam" });
    expect(prompt).toContain("<previous_messages>\n(none)\n</previous_messages>");
    expect(prompt).toContain("The user's name is Sam.");
  });

  it("rejects a current date that is not YYYY-MM-DD", () => {
    expect(() => buildExtractionPrompt({ ...input, currentDate: "30/11/2026" })).toThrow(/YYYY-MM-DD/);
  });
});

describe("the extraction prompt's phrasing rule", () => {
  it("asks for memories in the user's own words, never about 'them'", () => {
    expect(EXTRACTION_SYSTEM_PROMPT).not.toMatch(/third person/i);
    expect(EXTRACTION_SYSTEM_PROMPT).toContain('Never refer to the user as "they", "their"');
    expect(EXTRACTION_SYSTEM_PROMPT).toContain('"Needs to renew passport by 2027-03-03."');
  });
});
