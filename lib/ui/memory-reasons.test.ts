import { describe, expect, it } from "vitest";
import { memoryReason, memoryReasons, sentSummary } from "./memory-reasons";

describe("memoryReason", () => {
  it("names each retrieval branch in plain words", () => {
    expect(memoryReason("semantic")).toBe("matched your message");
    expect(memoryReason("conversation")).toBe("from this chat");
    expect(memoryReason("pinned")).toBe("pinned");
    expect(memoryReason("tool")).toBe("looked up");
  });

  it("keeps the name of a branch it does not know (a trace stored by a newer build)", () => {
    expect(memoryReason("graph")).toBe("graph");
  });
});

describe("memoryReasons", () => {
  it("joins the reasons of a memory chosen more than once, in the branches' order", () => {
    expect(memoryReasons(["pinned", "tool"])).toBe("pinned and looked up");
    expect(memoryReasons(["conversation", "semantic", "tool"])).toBe(
      "from this chat, matched your message, and looked up",
    );
  });

  it("says each reason once", () => {
    expect(memoryReasons(["semantic", "semantic"])).toBe("matched your message");
    expect(memoryReasons([])).toBe("");
  });
});

describe("sentSummary", () => {
  const of = (...reaches: ("matched" | "looked_up" | "at_hand")[]) => reaches.map((reach) => ({ reach }));

  it("says how many were sent and how many matched the message, never that they were used", () => {
    expect(sentSummary(of("at_hand", "at_hand", "at_hand", "at_hand"))).toBe(
      "Sent 4 memories: none matched this message, 4 at hand",
    );
    expect(sentSummary(of("matched", "at_hand"))).toBe("Sent 2 memories: 1 matched this message, 1 at hand");
    expect(sentSummary(of("matched"))).toBe("Sent 1 memory: 1 matched this message");
  });

  it("counts what a memory tool returned as looked up", () => {
    expect(sentSummary(of("looked_up", "looked_up", "at_hand"))).toBe(
      "Sent 3 memories: 2 looked up by the model, 1 at hand",
    );
  });

  it("says when none were sent", () => {
    expect(sentSummary([])).toBe("No memories sent");
  });
});
