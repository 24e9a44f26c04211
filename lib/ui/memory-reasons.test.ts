import { describe, expect, it } from "vitest";
import { memoryReason, memoryReasons } from "./memory-reasons";

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
