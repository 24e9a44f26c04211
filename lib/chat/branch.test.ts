import { describe, expect, it } from "vitest";
import { currentAfterDelete, currentBranch, newestLeafBelow, subtreeIds, type TreeNode, versionsOf } from "./branch";

/** A tree from `[id, parent]` pairs, created in the order given (a minute apart). */
function tree(...pairs: [string, string | null][]): TreeNode[] {
  return pairs.map(([id, parentMessageId], i) => ({ id, parentMessageId, createdAt: new Date(60_000 * i) }));
}

// q1 → a1 → q2 → a2, then q2 edited (q2b → a2b) and a2b regenerated (a2c).
const forked = tree(
  ["q1", null],
  ["a1", "q1"],
  ["q2", "a1"],
  ["a2", "q2"],
  ["q2b", "a1"],
  ["a2b", "q2b"],
  ["a2c", "q2b"],
);
const ids = (nodes: TreeNode[]) => nodes.map((n) => n.id);

describe("currentBranch", () => {
  it("is the path from the first message to the current one, oldest first", () => {
    expect(ids(currentBranch(forked, "a2"))).toEqual(["q1", "a1", "q2", "a2"]);
    expect(ids(currentBranch(forked, "a2b"))).toEqual(["q1", "a1", "q2b", "a2b"]);
  });

  it("continues below a current message that has children, by the newest child", () => {
    expect(ids(currentBranch(forked, "q2b"))).toEqual(["q1", "a1", "q2b", "a2c"]);
    expect(ids(currentBranch(forked, "q1"))).toEqual(["q1", "a1", "q2b", "a2c"]);
  });

  it("falls back to the newest message when the current one is unknown or missing", () => {
    expect(ids(currentBranch(forked, null))).toEqual(["q1", "a1", "q2b", "a2c"]);
    expect(ids(currentBranch(forked, "gone"))).toEqual(["q1", "a1", "q2b", "a2c"]);
    expect(currentBranch([], null)).toEqual([]);
  });

  it("keeps a linear conversation whole", () => {
    const linear = tree(["q1", null], ["a1", "q1"], ["q2", "a1"], ["a2", "q2"]);
    expect(ids(currentBranch(linear, "a2"))).toEqual(["q1", "a1", "q2", "a2"]);
  });

  it("ends on a parent loop instead of walking forever", () => {
    const looped: TreeNode[] = [
      { id: "x", parentMessageId: "y", createdAt: new Date(0) },
      { id: "y", parentMessageId: "x", createdAt: new Date(1) },
    ];
    expect(currentBranch(looped, "x").length).toBeLessThanOrEqual(2);
  });
});

describe("versionsOf", () => {
  it("numbers a message among the messages sharing its parent, oldest first", () => {
    const versions = versionsOf(forked);
    expect(versions.get("q2")).toEqual({ ids: ["q2", "q2b"], index: 0 });
    expect(versions.get("q2b")).toEqual({ ids: ["q2", "q2b"], index: 1 });
    expect(versions.get("a2c")).toEqual({ ids: ["a2b", "a2c"], index: 1 });
    expect(versions.get("a1")).toEqual({ ids: ["a1"], index: 0 });
  });

  it("counts first messages as versions of each other", () => {
    const versions = versionsOf(tree(["q1", null], ["a1", "q1"], ["q1b", null]));
    expect(versions.get("q1b")).toEqual({ ids: ["q1", "q1b"], index: 1 });
  });
});

describe("newestLeafBelow", () => {
  it("follows the newest child down to a leaf", () => {
    expect(newestLeafBelow(forked, "a1")?.id).toBe("a2c");
    expect(newestLeafBelow(forked, "q2")?.id).toBe("a2");
    expect(newestLeafBelow(forked, "a2")?.id).toBe("a2");
    expect(newestLeafBelow(forked, "nope")).toBeUndefined();
  });
});

describe("deleting a version", () => {
  it("takes the message and everything below it", () => {
    expect(subtreeIds(forked, "q2b").sort()).toEqual(["a2b", "a2c", "q2b"]);
    expect(subtreeIds(forked, "a2")).toEqual(["a2"]);
  });

  it("continues on the version before it, else after it, else its parent", () => {
    expect(currentAfterDelete(forked, "q2b")).toBe("a2");
    expect(currentAfterDelete(forked, "q2")).toBe("a2c");
    expect(currentAfterDelete(forked, "a2")).toBe("q2");
    expect(currentAfterDelete(tree(["q1", null]), "q1")).toBeNull();
  });
});
