import { describe, expect, it } from "vitest";
import type { ConversationCandidate } from "./conversation-branch";
import { formatMemories } from "./format";
import { mergeBranches } from "./merge";
import type { PinnedCandidate } from "./pinned-branch";
import type { SemanticCandidate } from "./retrieve";
import { traceCandidates } from "./trace";

const base = (id: string, importance: number) => ({
  id,
  title: null,
  content: `content ${id}`,
  importance,
  createdAt: new Date("2025-01-01T00:00:00Z"),
  updatedAt: new Date("2025-01-01T00:00:00Z"),
});
const semantic = (id: string, rank: number, selected: boolean, importance: number): SemanticCandidate => ({
  ...base(id, importance),
  similarity: 0.9 - rank / 10,
  recency: 1,
  score: 1 - rank / 10,
  rank,
  selected,
});
const conversation = (id: string, rank: number, importance: number): ConversationCandidate => ({
  ...base(id, importance),
  rank,
});

describe("traceCandidates", () => {
  it("gives every row of both branches its fate", () => {
    const semanticRows = [
      semantic("s1", 1, true, 0.9),
      semantic("both", 2, true, 0.8),
      semantic("s3", 3, true, 0.1),
      semantic("late", 4, false, 0.7),
      semantic("lost", 5, false, 0.7),
    ];
    const conversationRows = [conversation("both", 1, 0.8), conversation("late", 2, 0.7), conversation("c", 3, 0.6)];
    const merged = mergeBranches(
      semanticRows.filter((row) => row.selected),
      conversationRows,
    );
    // A cap of 4 drops the least important merged memory (s3).
    const formatted = formatMemories(merged, { maxMemories: 4, maxLineChars: 100, maxTitleChars: 50, bullet: "- " });
    const trace = traceCandidates(semanticRows, conversationRows, merged, formatted);

    expect(trace.map((t) => [t.branch, t.memoryId, t.rank, t.fate, t.selectedBy, t.line])).toEqual([
      ["semantic", "s1", 1, "included", ["semantic"], "- content s1"],
      ["semantic", "both", 2, "included", ["semantic", "conversation"], "- content both"],
      ["semantic", "s3", 3, "dropped_formatter_cap", ["semantic"], null],
      ["semantic", "late", 4, "dropped_limit", ["conversation"], null],
      ["semantic", "lost", 5, "dropped_limit", [], null],
      ["conversation", "both", 1, "dropped_dedup", ["semantic", "conversation"], null],
      ["conversation", "late", 2, "included", ["conversation"], "- content late"],
      ["conversation", "c", 3, "included", ["conversation"], "- content c"],
    ]);
  });

  it("shows the semantic components on a conversation row only when the semantic query listed the memory", () => {
    const semanticRows = [{ ...semantic("late", 7, false, 0.7), similarity: 0.25, recency: 0.5, score: 0.41 }];
    const conversationRows = [conversation("late", 1, 0.7), conversation("c", 2, 0.6)];
    const merged = mergeBranches([], conversationRows);
    const trace = traceCandidates(
      semanticRows,
      conversationRows,
      merged,
      formatMemories(merged, {
        maxMemories: 8,
        maxLineChars: 100,
        maxTitleChars: 50,
        bullet: "• ",
      }),
    );
    const [, late, c] = trace;
    expect(late).toMatchObject({ branch: "conversation", similarity: 0.25, recency: 0.5, score: 0.41 });
    expect(c).toMatchObject({ branch: "conversation", similarity: null, recency: null, score: null, importance: 0.6 });
  });

  it("marks a truncated line", () => {
    const long = { ...conversation("long", 1, 0.5), content: "x".repeat(150) };
    const merged = mergeBranches([], [long]);
    const formatted = formatMemories(merged, { maxMemories: 8, maxLineChars: 100, maxTitleChars: 50, bullet: "• " });
    const [row] = traceCandidates([], [long], merged, formatted);
    expect(row).toMatchObject({ fate: "included", truncated: true, content: "x".repeat(150) });
    expect(row?.line).toHaveLength(102);
  });

  it("carries a hybrid strategy's fusion components, and nothing extra for the others", () => {
    const hybridRow: SemanticCandidate = {
      ...semantic("h", 1, true, 0.5),
      relevance: 0.8,
      vectorRank: 2,
      textRank: 1,
      textScore: 3.5,
    };
    const rows = [hybridRow, semantic("plain", 2, true, 0.5)];
    const merged = mergeBranches(rows, []);
    const formatted = formatMemories(merged, { maxMemories: 8, maxLineChars: 100, maxTitleChars: 50, bullet: "- " });
    const [hybrid, plain] = traceCandidates(rows, [], merged, formatted);
    expect(hybrid).toMatchObject({ relevance: 0.8, vectorRank: 2, textRank: 1, textScore: 3.5 });
    expect(plain && Object.keys(plain)).not.toContain("relevance");
  });

  it("carries dateMatch (0 included) when the message named a date, and no key otherwise", () => {
    const rows = [
      { ...semantic("in", 1, true, 0.5), dateMatch: 1 },
      { ...semantic("out", 2, true, 0.5), dateMatch: 0 },
      semantic("undated", 3, true, 0.5),
    ];
    const merged = mergeBranches(rows, []);
    const formatted = formatMemories(merged, { maxMemories: 8, maxLineChars: 100, maxTitleChars: 50, bullet: "- " });
    const [inside, outside, undated] = traceCandidates(rows, [], merged, formatted);
    expect([inside?.dateMatch, outside?.dateMatch]).toEqual([1, 0]);
    expect(undated && Object.keys(undated)).not.toContain("dateMatch");
  });

  it("gives pinned rows their fates (included, over the pinned cap, first of a duplicate) and lists near-misses last", () => {
    const pinned = (id: string, rank: number, selected: boolean): PinnedCandidate => ({
      ...base(id, 0.2),
      rank,
      selected,
    });
    const pinnedRows = [pinned("p1", 1, true), pinned("both", 2, true), pinned("over", 3, false)];
    const semanticRows = [semantic("both", 1, true, 0.2), semantic("s", 2, true, 0.9)];
    const nearMisses = [
      { ...semantic("miss", 1, false, 0.9), similarity: 0.05, score: 0.3 },
      { ...semantic("over", 2, false, 0.2), similarity: 0.01, score: 0.2 },
    ];
    const merged = mergeBranches(
      semanticRows,
      [],
      pinnedRows.filter((row) => row.selected),
    );
    const formatted = formatMemories(
      merged.map((m) => ({ ...m, pinned: m.branches.includes("pinned") })),
      { maxMemories: 8, maxLineChars: 100, maxTitleChars: 50, bullet: "- " },
    );
    const trace = traceCandidates(semanticRows, [], merged, formatted, pinnedRows, nearMisses);
    expect(trace.map((t) => [t.branch, t.memoryId, t.rank, t.fate, t.selectedBy, t.line])).toEqual([
      ["pinned", "p1", 1, "included", ["pinned"], "- content p1"],
      ["pinned", "both", 2, "included", ["pinned", "semantic"], "- content both"],
      ["pinned", "over", 3, "dropped_limit", [], null],
      ["semantic", "both", 1, "dropped_dedup", ["pinned", "semantic"], null],
      ["semantic", "s", 2, "included", ["semantic"], "- content s"],
      ["semantic", "miss", 1, "below_threshold", [], null],
      ["semantic", "over", 2, "below_threshold", [], null],
    ]);
    // A pinned row carries the semantic numbers only when the memory passed the threshold.
    expect(trace[1]).toMatchObject({ similarity: semanticRows[0]?.similarity, score: semanticRows[0]?.score });
    expect(trace[2]).toMatchObject({ similarity: null, score: null });
    expect(trace[5]).toMatchObject({ similarity: 0.05, score: 0.3 });
    expect(formatted.lines).toEqual(["- content both", "- content p1", "- content s"]);
  });
});
