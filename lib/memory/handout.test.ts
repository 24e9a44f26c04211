import { describe, expect, it } from "vitest";
import { MEMORY_TYPES } from "@/db/schema";
import { formatHandout, type HandoutMemory } from "./handout";

const memory = (type: HandoutMemory["type"], content: string, extra: Partial<HandoutMemory> = {}): HandoutMemory => ({
  type,
  content,
  deadline: null,
  pinned: false,
  ...extra,
});

describe("formatHandout", () => {
  it("groups the memories by type under plain headings, pinned first, each in its own words on one line", () => {
    const text = formatHandout(
      [
        memory("preference", "Prefers tea to coffee."),
        memory("personal", "Lives in Lisbon."),
        memory("actionable", "Renew the passport.", { deadline: "2027-01-15" }),
        memory("fact", "Has a cat named\n  Miso.", { pinned: true }),
      ],
      { date: "2026-12-07" },
    );
    expect(text).toBe(
      [
        "What my assistant Lifeline remembers about me (4 memories, as of 2026-12-07). Please remember these:",
        "",
        "About me:",
        "- Has a cat named Miso.",
        "- Lives in Lisbon.",
        "",
        "My preferences:",
        "- Prefers tea to coffee.",
        "",
        "Things to do:",
        "- Renew the passport. (by 2027-01-15)",
        "",
      ].join("\n"),
    );
  });

  it("gives every memory type a heading, so no memory is left out of the summary", () => {
    const all = MEMORY_TYPES.map((type) => memory(type, `A ${type} memory.`));
    const text = formatHandout(all, { date: "2026-12-07" });
    for (const type of MEMORY_TYPES) expect(text).toContain(`- A ${type} memory.`);
    expect(text).toContain("(9 memories,");
  });

  it("is empty when nothing is remembered, and says 'memory' for one", () => {
    expect(formatHandout([], { date: "2026-12-07" })).toBe("");
    expect(formatHandout([memory("goal", "Run a marathon.")], { date: "2026-12-07" })).toContain("(1 memory, as of");
  });
});
