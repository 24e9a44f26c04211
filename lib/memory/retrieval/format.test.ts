import { describe, expect, it } from "vitest";
import { formatterConfig } from "@/core/config";
import { type FormattableMemory, formatMemories } from "./format";

const memory = (id: string, fields: Partial<FormattableMemory> = {}): FormattableMemory => ({
  id,
  title: null,
  content: `content ${id}`,
  importance: 0.5,
  createdAt: new Date("2025-01-01T00:00:00Z"),
  ...fields,
});

describe("formatMemories", () => {
  it("orders by importance desc, then newest first, then id", () => {
    const result = formatMemories(
      [
        memory("old", { importance: 0.5, createdAt: new Date("2024-01-01T00:00:00Z") }),
        memory("b", { importance: 0.5 }),
        memory("top", { importance: 0.9, createdAt: new Date("2020-01-01T00:00:00Z") }),
        memory("a", { importance: 0.5 }),
      ],
      formatterConfig,
    );
    expect(result.memories.map((m) => m.id)).toEqual(["top", "a", "b", "old"]);
    expect(result.lines).toEqual(["• content top", "• content a", "• content b", "• content old"]);
  });

  it("puts pinned memories first, so the cap never drops one for a more important retrieved memory", () => {
    const inputs = [
      ...Array.from({ length: 4 }, (_, i) => memory(`m${i}`, { importance: 0.9 - i / 10 })),
      memory("pin-low", { importance: 0.1, pinned: true }),
      memory("pin-high", { importance: 0.3, pinned: true }),
    ];
    const result = formatMemories(inputs, { ...formatterConfig, maxMemories: 3 });
    expect(result.memories.map((m) => [m.id, m.included])).toEqual([
      ["pin-high", true],
      ["pin-low", true],
      ["m0", true],
      ["m1", false],
      ["m2", false],
      ["m3", false],
    ]);
  });

  it("keeps maxMemories and records the rest as dropped by the cap", () => {
    const inputs = Array.from({ length: 10 }, (_, i) => memory(`m${i}`, { importance: 1 - i / 10 }));
    const result = formatMemories(inputs, formatterConfig);
    expect(result.lines).toHaveLength(8);
    expect(result.memories.slice(8)).toEqual([
      { id: "m8", included: false, truncated: false, line: null },
      { id: "m9", included: false, truncated: false, line: null },
    ]);
  });

  it("uses `title: content` only for a non-empty title under 50 characters", () => {
    const lines = formatMemories(
      [
        memory("a", { importance: 0.9, title: "Tea", content: "Prefers green tea" }),
        memory("b", { importance: 0.8, title: "x".repeat(49), content: "c" }),
        memory("c", { importance: 0.7, title: "x".repeat(50), content: "title too long" }),
        memory("d", { importance: 0.6, title: "  ", content: "blank title" }),
      ],
      formatterConfig,
    ).lines;
    expect(lines).toEqual(["• Tea: Prefers green tea", `• ${"x".repeat(49)}: c`, "• title too long", "• blank title"]);
  });

  it("never prints a title that repeats its content: the same words, or the start of them", () => {
    const lines = formatMemories(
      [
        // A memory saved over MCP before it had a title of its own: the title was the content.
        memory("same", {
          importance: 0.9,
          title: "My bike lock code word is ZEBRA-RW-9",
          content: "My bike lock code word is ZEBRA-RW-9",
        }),
        memory("case", { importance: 0.8, title: "likes jazz.", content: "Likes  jazz" }),
        memory("cut", {
          importance: 0.7,
          title: "Training for the Lisbon marathon in Oc...",
          content: "Training for the Lisbon marathon in October",
        }),
        memory("start", { importance: 0.6, title: "Allergy", content: "Allergy to penicillin" }),
        memory("word", { importance: 0.5, title: "Tea", content: "Teaches on Mondays" }),
        memory("other", { importance: 0.4, title: "Bike lock", content: "My bike lock code word is ZEBRA-RW-9" }),
      ],
      formatterConfig,
    ).lines;
    expect(lines).toEqual([
      "• My bike lock code word is ZEBRA-RW-9",
      "• Likes jazz",
      "• Training for the Lisbon marathon in October",
      "• Allergy to penicillin",
      "• Tea: Teaches on Mondays",
      "• Bike lock: My bike lock code word is ZEBRA-RW-9",
    ]);
  });

  it("cuts a line over 100 characters to 97 + '...', and records it", () => {
    const exactly100 = "a".repeat(100);
    const over = "b".repeat(101);
    const result = formatMemories(
      [memory("fits", { importance: 0.9, content: exactly100 }), memory("cut", { importance: 0.8, content: over })],
      formatterConfig,
    );
    expect(result.memories).toEqual([
      { id: "fits", included: true, truncated: false, line: `• ${exactly100}` },
      { id: "cut", included: true, truncated: true, line: `• ${"b".repeat(97)}...` },
    ]);
  });

  it("counts characters, not UTF-16 units, and never splits one", () => {
    const result = formatMemories([memory("emoji", { content: "🍵".repeat(120) })], formatterConfig);
    expect(result.memories[0]).toMatchObject({ truncated: true, line: `• ${"🍵".repeat(97)}...` });
  });

  it("puts a multi-line memory on one line", () => {
    const result = formatMemories(
      [memory("m", { title: "Plan\n", content: "step one\n\n  step two" })],
      formatterConfig,
    );
    expect(result.lines).toEqual(["• Plan: step one step two"]);
  });
});
