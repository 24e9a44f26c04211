import { describe, expect, it } from "vitest";
import { chatControls } from "./controls";

describe("chatControls", () => {
  it("offers nothing in an imported conversation that the server refuses there (turns, ratings, notes), and keeps the memory switch", () => {
    expect(chatControls({ importedFrom: "chatgpt" })).toEqual({
      composer: false,
      edit: false,
      regenerate: false,
      retry: false,
      turnSettings: false,
      feedback: false,
      inspectExtractionOnly: true,
    });
  });

  it("offers everything in a chat of Lifeline's own, and in a new chat", () => {
    for (const conversation of [{ importedFrom: null }, undefined]) {
      expect(chatControls(conversation)).toEqual({
        composer: true,
        edit: true,
        regenerate: true,
        retry: true,
        turnSettings: true,
        feedback: true,
        inspectExtractionOnly: false,
      });
    }
  });
});
