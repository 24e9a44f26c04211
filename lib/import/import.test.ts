import { readFileSync } from "node:fs";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { importConfig } from "@/core/config";
import { packBatches } from "./batches";
import { splitPastedMemories } from "./pasted";
import { type ReadLimits, readExport } from "./read-export";
import { inDateRange, summarize } from "./summary";
import { ImportFormatError } from "./types";

const fixture = (name: string) => readFileSync(join(__dirname, "fixtures", name));
const json = (value: unknown) => strToU8(JSON.stringify(value));

function readError(bytes: Uint8Array, limits: ReadLimits = importConfig): string {
  try {
    readExport(bytes, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFormatError);
    return (error as Error).message;
  }
  throw new Error("expected the export to be refused");
}

describe("ChatGPT export", () => {
  const parsed = readExport(fixture("chatgpt-conversations.json"));

  it("keeps the path from current_node to the root, user and assistant text only, with their dates", () => {
    expect(parsed.source).toBe("chatgpt");
    expect(parsed.conversations).toHaveLength(2);
    const [bike] = parsed.conversations;
    expect(bike?.sourceId).toBe("c0a1b2c3-0000-4000-8000-000000000001");
    expect(bike?.title).toBe("Commuting by bike");
    expect(bike?.createdAt).toBe("2023-11-14T22:13:20.123Z");
    expect(bike?.messages).toEqual([
      {
        sourceId: "n-u1",
        role: "user",
        text: "I live in Lisbon and I cycle to work every day.",
        createdAt: "2023-11-14T22:13:20.500Z",
      },
      {
        sourceId: "n-a1",
        role: "assistant",
        text: "Cycling in Lisbon's hills is a workout!",
        createdAt: "2023-11-14T22:13:40.000Z",
      },
      {
        sourceId: "n-u2",
        role: "user",
        text: "[image]\nThis is my bike, a green Brompton.\n[file: bike.jpg]",
        createdAt: "2023-11-14T22:23:20.000Z",
      },
      {
        sourceId: "n-a2",
        role: "assistant",
        text: "A green Brompton folds small enough for the tram.",
        createdAt: "2023-11-14T22:23:30.000Z",
      },
    ]);
  });

  it("keeps the edited question the user left, not the version before the edit", () => {
    expect(parsed.conversations[1]?.messages.map((m) => m.text)).toEqual([
      "My sister is called Inês.",
      "Inês is a lovely name.",
    ]);
  });

  it("counts what it skipped, by reason", () => {
    const skipped = Object.fromEntries(parsed.skipped.map((s) => [s.reason, s.count]));
    expect(skipped).toEqual({
      "system message": 2,
      "hidden message": 1,
      "model reasoning": 1,
      "tool call": 1,
      "tool message": 2,
      "on a branch not kept (edited or regenerated)": 3,
      "conversation without a user message": 1,
    });
  });

  it("refuses a cycle in a mapping, naming the conversation", () => {
    const cyclic = [
      {
        title: "Loop",
        conversation_id: "loop-1",
        current_node: "a",
        mapping: {
          a: { id: "a", message: null, parent: "b", children: [] },
          b: { id: "b", message: null, parent: "a", children: ["a"] },
        },
      },
    ];
    expect(readError(json(cyclic))).toBe('Conversation "Loop" has a cycle in its message tree.');
  });

  it("skips a message over the length limit, and says so", () => {
    const long = "x".repeat(importConfig.maxMessageChars + 1);
    const conversation = (text: string) => ({
      title: "Long",
      conversation_id: "long-1",
      create_time: 1700000000,
      current_node: "a",
      mapping: {
        u: {
          message: { id: "u", author: { role: "user" }, content: { content_type: "text", parts: ["hi"] } },
          parent: null,
        },
        big: {
          message: { id: "big", author: { role: "user" }, content: { content_type: "text", parts: [text] } },
          parent: "u",
        },
        a: {
          message: { id: "a", author: { role: "assistant" }, content: { content_type: "text", parts: ["ok"] } },
          parent: "big",
        },
      },
    });
    const read = readExport(json([conversation(long)]));
    expect(read.conversations[0]?.messages.map((m) => m.sourceId)).toEqual(["u", "a"]);
    expect(read.skipped).toEqual([{ reason: "message longer than 15,000 characters", count: 1 }]);
  });
});

describe("Claude export", () => {
  const parsed = readExport(fixture("claude-conversations.json"));

  it("reads text blocks, notes images and files, and falls back to `text`", () => {
    expect(parsed.source).toBe("claude");
    expect(parsed.conversations).toHaveLength(1);
    expect(parsed.conversations[0]).toEqual({
      sourceId: "d1e2f3a4-0000-4000-8000-000000000001",
      title: "Learning Portuguese",
      createdAt: "2024-03-01T09:00:00.000Z",
      messages: [
        {
          sourceId: "m-1",
          role: "user",
          text: "I'm learning Portuguese before my move to Porto in June.\n[image]\n[file: notes.txt]",
          createdAt: "2024-03-01T09:00:01.000Z",
        },
        {
          sourceId: "m-2",
          role: "assistant",
          text: "Boa sorte! Porto is beautiful in June.",
          createdAt: "2024-03-01T09:00:30.000Z",
        },
        {
          sourceId: "m-3",
          role: "user",
          text: "Older exports carry the text here only.",
          createdAt: "2024-03-01T09:04:00.000Z",
        },
      ],
    });
    const skipped = Object.fromEntries(parsed.skipped.map((s) => [s.reason, s.count]));
    expect(skipped).toEqual({
      "model reasoning": 1,
      "tool use": 1,
      "tool result": 1,
      "empty message": 1,
      "conversation without a user message": 1,
    });
  });
});

describe("zip exports and bad input", () => {
  it("reads conversations.json from a zip, wherever it sits", () => {
    const zip = zipSync({
      "export/conversations.json": new Uint8Array(fixture("chatgpt-conversations.json")),
      "export/user.json": strToU8("{}"),
    });
    expect(readExport(zip).conversations).toHaveLength(2);
  });

  it("refuses a zip with no conversations.json, a truncated zip, too many entries and a zip bomb", () => {
    expect(readError(zipSync({ "user.json": strToU8("{}") }))).toBe(
      "The zip has no conversations.json: it is not a ChatGPT or Claude export.",
    );
    const zip = zipSync({ "conversations.json": new Uint8Array(fixture("claude-conversations.json")) });
    expect(readError(zip.subarray(0, zip.length - 30))).toMatch(/^The zip is damaged or truncated/);

    const many = zipSync(Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`f${i}.txt`, strToU8("x")])));
    expect(readError(many, { ...importConfig, maxZipEntries: 3 })).toBe("The zip has more than 3 files.");

    const bomb = zipSync({ "conversations.json": new Uint8Array(5 * 1024 * 1024) }, { level: 9 });
    expect(readError(bomb)).toBe("conversations.json expands more than 100 times: refused as a zip bomb.");
    expect(readError(bomb, { ...importConfig, maxCompressionRatio: 1e9, maxUncompressedBytes: 1024 * 1024 })).toBe(
      "conversations.json is larger than 1 MB uncompressed.",
    );
  });

  it("names what is wrong with a file that is not an export", () => {
    expect(readError(new Uint8Array())).toBe("The file is empty.");
    expect(readError(strToU8("[{"))).toMatch(/^The file is not valid JSON \(/);
    expect(readError(strToU8("[]"))).toBe("The export has no conversations.");
    expect(readError(json({ hello: "world" }))).toMatch(/^The file is not a ChatGPT, Claude or Lifeline export/);
    expect(readError(json([{ mapping: {}, title: "No id" }]))).toBe('Conversation 1 ("No id") has no id.');
    expect(readError(json([{ uuid: "x", name: "Empty", chat_messages: [] }]))).toBe(
      "The export has no conversation with a message of yours to import.",
    );
  });
});

describe("preview summary", () => {
  const { conversations } = readExport(fixture("chatgpt-conversations.json"));

  it("counts conversations, messages, exchanges to extract and the date range", () => {
    expect(summarize(conversations)).toEqual({
      conversations: 2,
      messages: 6,
      extractionCalls: 3,
      from: "2023-11-14T22:13:20.500Z",
      to: "2024-03-09T16:01:00.000Z",
    });
  });

  it("chooses conversations by a date range", () => {
    expect(inDateRange(conversations, { from: "2024-01-01" }).map((c) => c.title)).toEqual(["Edited question"]);
    expect(inDateRange(conversations, { to: "2023-12-31" }).map((c) => c.title)).toEqual(["Commuting by bike"]);
  });
});

describe("pasted memory list", () => {
  it("splits one memory per line or bullet, dropping headings, numbering and emphasis", () => {
    const pasted = [
      "Here's what I remember about you:",
      "",
      "- You live in **Lisbon**.",
      "* You have a sister called Inês,",
      "  who lives in Porto.",
      "1. You prefer short answers.",
      "2) You are allergic to peanuts.",
      "## Work",
      "You work as a nurse.",
      "- You live in Lisbon.",
    ].join("\n");
    expect(splitPastedMemories(pasted, { max: 50 })).toEqual([
      "You live in Lisbon.",
      "You have a sister called Inês, who lives in Porto.",
      "You prefer short answers.",
      "You are allergic to peanuts.",
      "Work",
      "You work as a nurse.",
    ]);
    expect(splitPastedMemories("a\nb\nc", { max: 2 })).toEqual(["a", "b"]);
  });
});

describe("batches", () => {
  const message = (i: number, role: "user" | "assistant") => ({
    sourceId: `m${i}`,
    role,
    text: "x".repeat(400),
    createdAt: "2024-01-01T00:00:00.000Z",
  });
  const conversation = (id: string, count: number) => ({
    sourceId: id,
    title: id,
    createdAt: "2024-01-01T00:00:00.000Z",
    messages: Array.from({ length: count }, (_, i) => message(i, i % 2 === 0 ? "user" : "assistant")),
  });

  it("keeps every body under the byte limit and splits a long conversation before a user message", () => {
    const batches = packBatches([conversation("a", 2), conversation("long", 12), conversation("b", 2)], {
      maxBytes: 2_500,
      maxConversations: 10,
    });
    for (const batch of batches) {
      expect(new TextEncoder().encode(JSON.stringify({ conversations: batch })).length).toBeLessThanOrEqual(2_500);
      expect(new Set(batch.map((c) => c.sourceId)).size).toBe(batch.length);
    }
    const long = batches.flat().filter((c) => c.sourceId === "long");
    expect(long.length).toBeGreaterThan(1);
    for (const part of long) expect(part.messages[0]?.role).toBe("user");
    expect(long.flatMap((part) => part.messages.map((m) => m.sourceId))).toEqual(
      conversation("long", 12).messages.map((m) => m.sourceId),
    );
  });

  it("puts at most maxConversations in a batch", () => {
    const many = Array.from({ length: 5 }, (_, i) => conversation(`c${i}`, 2));
    expect(packBatches(many, { maxBytes: 1_000_000, maxConversations: 2 }).map((b) => b.length)).toEqual([2, 2, 1]);
  });
});
