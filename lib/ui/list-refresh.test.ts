import { describe, expect, it } from "vitest";
import { type ListRender, nextListRender, renderedWith } from "./list-refresh";

const row = (memoriesFound: number, status: "running" | "paused" | "done" = "running", id = "a") => ({
  id,
  memoriesFound,
  status,
});
const at = (atMs: number) => ({ atMs, everyMs: 6_000 });

describe("the memories list below an import", () => {
  it("is read again at most every interval while the import only finds more memories", () => {
    const rendered = renderedWith([row(3)], 0);
    expect(nextListRender(rendered, [row(5)], at(1_500))).toBeNull();
    expect(nextListRender(rendered, [row(5)], at(6_000))).toEqual(renderedWith([row(5)], 6_000));
    expect(nextListRender(rendered, [row(3)], at(60_000))).toBeNull(); // nothing new
  });

  it("catches up with what it was rendered with, not with the previous poll", () => {
    // Polls every 1.5 s: 5 found at the first, and still 5 at each later one. The list shows 3 until 6 s have passed.
    let rendered: ListRender = renderedWith([row(3)], 0);
    const reads: number[] = [];
    for (const atMs of [1_500, 3_000, 4_500, 6_000, 7_500]) {
      const next = nextListRender(rendered, [row(5)], at(atMs));
      if (next) {
        rendered = next;
        reads.push(atMs);
      }
    }
    expect(reads).toEqual([6_000]);
  });

  it("is read at once when an import ends, pauses or resumes, or is undone", () => {
    const rendered = renderedWith([row(3), row(0, "paused", "b")], 0);
    expect(nextListRender(rendered, [row(3, "done"), row(0, "paused", "b")], at(0))).not.toBeNull();
    expect(nextListRender(rendered, [row(3), row(0, "running", "b")], at(0))).not.toBeNull();
    expect(nextListRender(rendered, [row(3)], at(0))).not.toBeNull();
    expect(nextListRender(rendered, [row(3), row(0, "paused", "b")], at(0))).toBeNull();
  });
});
