/**
 * docs/retrieval.md's worked example is computed here with the reference scorer: this test
 * fails when the docs' table and the formula (or the config) disagree, and prints the table.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { retrievalStrategies } from "@/core/config";
import { rankCandidates } from "./score";

const NOW = new Date("2025-06-15T12:00:00.000Z");
const DAY = 86_400_000;

/** Fictional memories with stipulated similarities to "Any ideas for dinner tonight?". */
const EXAMPLE = [
  { id: "a", text: "Had ramen for lunch on a work trip", similarity: 0.82, importance: 0.2, days: 75 },
  { id: "b", text: "Vegetarian since January", similarity: 0.64, importance: 0.9, days: 2 },
  { id: "c", text: "Allergic to peanuts", similarity: 0.55, importance: 1.0, days: 120 },
  { id: "d", text: "Cooking for two this month", similarity: 0.61, importance: 0.6, days: 10 },
  { id: "e", text: "Likes Thai food", similarity: 0.7, importance: 0.5, days: 45 },
  { id: "f", text: "Bought a new bike", similarity: 0.31, importance: 0.4, days: 0 },
  { id: "g", text: "Prefers window seats", similarity: 0.28, importance: 0.95, days: 1 },
  { id: "h", text: "Trying to eat less sugar", similarity: 0.5, importance: 0.8, days: 5 },
];

/** The example's table as cells: a header row, then one row per memory by similarity. */
function exampleTable(): string[][] {
  const ranked = rankCandidates(
    EXAMPLE.map((m) => ({ ...m, updatedAt: new Date(NOW.getTime() - m.days * DAY) })),
    NOW,
    retrievalStrategies.weighted,
  );
  const rows = [...EXAMPLE]
    .sort((x, y) => y.similarity - x.similarity)
    .map((m) => {
      const r = ranked.find((c) => c.id === m.id);
      const fate = !r ? "below threshold" : r.selected ? "selected" : "dropped by limit";
      const computed = r ? [r.recency.toFixed(4), r.score.toFixed(4), String(r.rank)] : ["—", "—", "—"];
      return [m.text, m.similarity.toFixed(2), m.importance.toFixed(2), String(m.days), ...computed, fate];
    });
  return [["memory", "similarity", "importance", "days since update", "recency", "score", "rank", "fate"], ...rows];
}

/** The cells of every markdown table row in `markdown` (alignment padding ignored). */
function tableRows(markdown: string): string[][] {
  return markdown
    .split("\n")
    .filter((line) => line.startsWith("|") && !/^\|[\s:|-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
}

describe("docs/retrieval.md", () => {
  it("shows the worked example exactly as the reference scorer computes it", () => {
    const docs = readFileSync(path.join(process.cwd(), "docs", "retrieval.md"), "utf8");
    const expected = exampleTable();
    const rows = tableRows(docs);
    const start = rows.findIndex((row) => row[0] === "memory");
    const table = expected.map((row) => `| ${row.join(" | ")} |`).join("\n");
    expect(rows.slice(start, start + expected.length), `docs/retrieval.md should show:\n${table}`).toEqual(expected);
  });
});
