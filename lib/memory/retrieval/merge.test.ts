import { describe, expect, it } from "vitest";
import type { RetrievedMemory } from "./memory-row";
import { mergeBranches } from "./merge";

const memory = (id: string): RetrievedMemory => ({
  id,
  title: null,
  content: `content ${id}`,
  importance: 0.5,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

describe("mergeBranches", () => {
  it("puts semantic first, then conversation, each memory once with every branch that selected it", () => {
    const merged = mergeBranches([memory("s1"), memory("both"), memory("s2")], [memory("c1"), memory("both")]);
    expect(merged.map((m) => [m.id, m.branches])).toEqual([
      ["s1", ["semantic"]],
      ["both", ["semantic", "conversation"]],
      ["s2", ["semantic"]],
      ["c1", ["conversation"]],
    ]);
  });

  it("puts pinned ahead of semantic; a pinned memory another branch selected keeps its pinned place", () => {
    const merged = mergeBranches(
      [memory("s1"), memory("p2")],
      [memory("p1"), memory("c1")],
      [memory("p1"), memory("p2")],
    );
    expect(merged.map((m) => [m.id, m.branches])).toEqual([
      ["p1", ["pinned", "conversation"]],
      ["p2", ["pinned", "semantic"]],
      ["s1", ["semantic"]],
      ["c1", ["conversation"]],
    ]);
  });

  it("handles empty branches", () => {
    expect(mergeBranches([], [])).toEqual([]);
    expect(mergeBranches([], [memory("c")]).map((m) => m.branches)).toEqual([["conversation"]]);
  });
});
