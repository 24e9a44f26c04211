import { describe, expect, it } from "vitest";
import { sentMemories } from "./transcript";

const candidate = (memoryId: string, selectedBy: string[], fate = "included") => ({
  memoryId,
  title: `title ${memoryId}`,
  selectedBy,
  fate,
});

describe("sentMemories", () => {
  it("tells a memory that matched the message from one only at hand (pinned, this conversation)", () => {
    const sent = sentMemories({
      candidates: [
        candidate("a", ["semantic"]),
        candidate("b", ["pinned"]),
        candidate("c", ["conversation"]),
        candidate("d", ["pinned", "semantic"]),
        candidate("e", ["semantic"], "below_threshold"),
      ],
      toolCalls: [],
    });
    expect(sent.map((m) => [m.memoryId, m.reach])).toEqual([
      ["a", "matched"],
      ["b", "at_hand"],
      ["c", "at_hand"],
      ["d", "matched"],
    ]);
  });

  it("a memory a memory tool returned was looked up, also when it was at hand in the prompt", () => {
    const sent = sentMemories({
      candidates: [candidate("a", ["pinned"])],
      toolCalls: [
        {
          memories: [
            { memoryId: "a", title: "title a", fate: "returned" },
            { memoryId: "b", title: "title b", fate: "returned" },
            { memoryId: "c", title: "title c", fate: "dropped_limit" },
          ],
        },
      ],
    });
    expect(sent.map((m) => [m.memoryId, m.reach, m.branches])).toEqual([
      ["a", "looked_up", ["pinned", "tool"]],
      ["b", "looked_up", ["tool"]],
    ]);
  });
});
