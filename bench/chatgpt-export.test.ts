import { describe, expect, it } from "vitest";
import { importConfig } from "@/core/config";
import { packBatches } from "@/lib/import/batches";
import { readExport } from "@/lib/import/read-export";
import { importBatchBody } from "@/lib/validation/imports";
import { generateChatGptExport } from "./chatgpt-export";

describe("the import bench's generated ChatGPT export", () => {
  const generated = generateChatGptExport(3, 120);
  const parsed = readExport(new TextEncoder().encode(JSON.stringify(generated.conversations)));

  it("is deterministic in its seed", () => {
    expect(generateChatGptExport(3, 20)).toEqual(generateChatGptExport(3, 20));
    expect(generateChatGptExport(3, 20)).not.toEqual(generateChatGptExport(4, 20));
  });

  it("reads as a ChatGPT export: every conversation, message and exchange it declares", () => {
    expect(parsed.source).toBe("chatgpt");
    expect(parsed.conversations).toHaveLength(generated.expected.conversations);
    const messages = parsed.conversations.flatMap((c) => c.messages);
    expect(messages).toHaveLength(generated.expected.messages);
    const exchanges = parsed.conversations.flatMap((c) =>
      c.messages.filter((m, i) => m.role === "user" && c.messages[i + 1]?.role === "assistant"),
    );
    expect(exchanges).toHaveLength(generated.expected.exchanges);
    expect(new Set(messages.map((m) => m.sourceId)).size).toBe(messages.length);
    // Each conversation alternates user and assistant, in the order said.
    for (const conversation of parsed.conversations) {
      conversation.messages.forEach((m, i) => {
        expect(m.role).toBe(i % 2 === 0 ? "user" : "assistant");
      });
      const times = conversation.messages.map((m) => Date.parse(m.createdAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
  });

  it("holds what a real export holds besides, skipped for the reasons the parser gives", () => {
    const reasons = Object.fromEntries(parsed.skipped.map((s) => [s.reason, s.count]));
    expect(reasons["system message"]).toBe(120);
    expect(reasons["on a branch not kept (edited or regenerated)"]).toBeGreaterThan(0);
    expect(reasons["tool call"]).toBeGreaterThan(0);
    expect(reasons["tool message"]).toBe(reasons["tool call"]);
    expect(parsed.conversations.some((c) => c.messages.some((m) => m.text.startsWith("[image]")))).toBe(true);
  });

  it("has realistic sizes and packs into batches the server accepts", () => {
    const counts = parsed.conversations.map((c) => c.messages.length / 2);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBeGreaterThan(10);
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    expect(mean).toBeGreaterThan(3);
    expect(mean).toBeLessThan(7);
    const answers = parsed.conversations.flatMap((c) => c.messages.filter((m) => m.role === "assistant"));
    const meanAnswer = answers.reduce((n, m) => n + m.text.length, 0) / answers.length;
    expect(meanAnswer).toBeGreaterThan(500);
    expect(meanAnswer).toBeLessThan(4_000);
    const batches = packBatches(parsed.conversations, {
      maxBytes: importConfig.maxBatchBytes,
      maxConversations: importConfig.maxBatchConversations,
    });
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) {
      expect(new TextEncoder().encode(JSON.stringify({ conversations: batch })).length).toBeLessThanOrEqual(
        importConfig.maxBatchBytes,
      );
      expect(importBatchBody.safeParse({ conversations: batch }).success).toBe(true);
    }
  });
});
