import { describe, expect, it } from "vitest";
import { listNeedsRefresh, renderedWith } from "./list-refresh";

const row = (memoriesFound: number, status = "running", id = "a") => ({ id, memoriesFound, status });
const every = (sinceMs: number) => ({ sinceMs, everyMs: 6_000 });

describe("the memories list below an import", () => {
  it("is read again at most every interval while the import only finds more memories", () => {
    const rendered = renderedWith([row(3)]);
    expect(listNeedsRefresh(rendered, [row(5)], every(1_500))).toBe(false);
    expect(listNeedsRefresh(rendered, [row(5)], every(6_000))).toBe(true);
    expect(listNeedsRefresh(rendered, [row(3)], every(60_000))).toBe(false); // nothing new
  });

  it("catches up with what it was rendered with, not with the previous poll", () => {
    // Found 5 at the last poll, 5 now: the list still shows 3, so it is read once the interval has passed.
    expect(listNeedsRefresh(renderedWith([row(3)]), [row(5)], every(9_000))).toBe(true);
  });

  it("is read at once when an import ends, pauses or resumes, or is undone", () => {
    const rendered = renderedWith([row(3), row(0, "paused", "b")]);
    expect(listNeedsRefresh(rendered, [row(3, "done"), row(0, "paused", "b")], every(0))).toBe(true);
    expect(listNeedsRefresh(rendered, [row(3), row(0, "running", "b")], every(0))).toBe(true);
    expect(listNeedsRefresh(rendered, [row(3)], every(0))).toBe(true);
    expect(listNeedsRefresh(rendered, [row(3), row(0, "paused", "b")], every(0))).toBe(false);
  });
});
