import { describe, expect, it } from "vitest";
import { shownParentId } from "./types";

const stored = "0b6f4a52-3c1e-4d7a-9f0e-1a2b3c4d5e6f";

describe("shownParentId", () => {
  it("is the stored answer shown before the new message", () => {
    expect(
      shownParentId([
        { id: "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f", role: "user" },
        { id: stored, role: "assistant" },
        { id: "k3J9xQ2mZ8pL1aBc", role: "user" },
      ]),
    ).toBe(stored);
  });

  it("is none for a first message, a message after a question, or an answer not stored yet", () => {
    expect(shownParentId([{ id: "k3J9xQ2mZ8pL1aBc", role: "user" }])).toBeUndefined();
    expect(
      shownParentId([
        { id: stored, role: "user" },
        { id: "k3J9xQ2mZ8pL1aBc", role: "user" },
      ]),
    ).toBeUndefined();
    expect(
      shownParentId([
        { id: "Zt5rW1qP0oN9mL8k", role: "assistant" },
        { id: "k3J9xQ2mZ8pL1aBc", role: "user" },
      ]),
    ).toBeUndefined();
  });
});
