/**
 * The debug view's account of an answer's history (components/debug/token-budget.tsx): how much was
 * sent within the budget, which messages were cut to fit and by how much, how many were left out.
 */
import type { HistoryEntry } from "@/lib/memory/retrieval/prompt";
import { plural } from "./format";

const count = (n: number) => n.toLocaleString("en-US");

export function historySummary(
  history: readonly HistoryEntry[],
  { tokens, budget }: { tokens: number; budget: number },
): string[] {
  if (history.length === 0) return ["No earlier messages: this was the first."];
  const sent = history.filter((entry) => entry.included).length;
  const lines = [
    `${sent} of ${plural(history.length, "earlier message", "earlier messages")} sent: ${count(tokens)} of a ${count(budget)}-token budget.`,
  ];
  history.forEach((entry, i) => {
    if (!entry.included || !entry.cut) return;
    const whose = entry.role === "user" ? "yours" : "an answer";
    const of = entry.tokens === null ? "" : ` of its ${count(entry.tokens)}`;
    lines.push(
      `Message ${i + 1} of ${history.length} (${whose}) was cut to fit: ${count(entry.cut.omittedTokens)}${of} tokens were left out, its start and end sent.`,
    );
  });
  const dropped = history.length - sent;
  if (dropped === 1) lines.push("The oldest message did not fit and was left out.");
  if (dropped > 1) lines.push(`The ${dropped} oldest messages did not fit and were left out.`);
  return lines;
}
