import type { MemoryType } from "@/db/schema";

export interface HandoutMemory {
  type: MemoryType;
  content: string;
  deadline: string | null;
  pinned: boolean;
}

/** The headings of the summary, in the order another assistant reads them: who, then what they want. */
const SECTIONS: { heading: string; types: MemoryType[] }[] = [
  { heading: "About me", types: ["personal", "fact"] },
  { heading: "My preferences", types: ["preference"] },
  { heading: "My goals", types: ["goal"] },
  { heading: "Things to do", types: ["actionable"] },
  { heading: "Events and decisions", types: ["event", "decision"] },
  { heading: "Context and insights", types: ["context", "insight"] },
];

/**
 * Active memories as a plain-text summary to paste into another assistant (Claude's memory import,
 * ChatGPT's custom instructions): grouped by type, pinned first within a group, one line each.
 * Only the memories' own words — nothing inferred or added.
 */
export function formatHandout(memories: readonly HandoutMemory[], { date }: { date: string }): string {
  if (memories.length === 0) return "";
  const lines = [
    `What my assistant Lifeline remembers about me (${memories.length} ${memories.length === 1 ? "memory" : "memories"}, as of ${date}). Please remember these:`,
  ];
  for (const section of SECTIONS) {
    const items = memories
      .filter((m) => section.types.includes(m.type))
      .sort((a, b) => Number(b.pinned) - Number(a.pinned));
    if (items.length === 0) continue;
    lines.push("", `${section.heading}:`);
    for (const m of items) lines.push(`- ${oneLine(m.content)}${m.deadline ? ` (by ${m.deadline})` : ""}`);
  }
  return `${lines.join("\n")}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
