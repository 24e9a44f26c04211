import { describe, expect, it } from "vitest";
import { JSON_MAX_BYTES_PER_CHAR } from "@/core/config";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import { sendDraftBody } from "./agent";
import { CHAT_ENVELOPE_MAX, chatBody, MESSAGE_MAX } from "./chat";
import { previewBody } from "./memories";

const EMOJI = "😀"; // one character, 4 bytes of UTF-8, 2 UTF-16 units
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

const hex4 = (unit: number) => `\\u${unit.toString(16).padStart(4, "0")}`;
/** JSON with every UTF-16 unit of every string — keys too — as a `\uXXXX` escape: the longest JSON of a value. */
function fullyEscaped(value: unknown): string {
  if (typeof value === "string")
    return `"${[...Array(value.length).keys()].map((i) => hex4(value.charCodeAt(i))).join("")}"`;
  if (Array.isArray(value)) return `[${value.map(fullyEscaped).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${fullyEscaped(k)}:${fullyEscaped(v)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}
/** What Python's `json.dumps` sends by default (ensure_ascii): every non-ASCII unit escaped, ", " and ": " separators. */
const pythonDumps = (value: unknown) =>
  JSON.stringify(value)
    .replace(/[\u0080-\uffff]/g, (c) => hex4(c.charCodeAt(0)))
    .replace(/","/g, '", "')
    .replace(/":/g, '": ');

describe("the chat message limit fits the body limit, however it is escaped", () => {
  it("JSON spends at most JSON_MAX_BYTES_PER_CHAR bytes on a character, in any form", () => {
    for (const char of [EMOJI, "字", "é", "a", '"', "\\", "\n", "\u0000", "\u{10FFFF}"]) {
      for (const form of [JSON.stringify(char), fullyEscaped(char), pythonDumps(char)]) {
        expect(JSON.parse(form)).toBe(char);
        expect(Buffer.byteLength(form) - 2, `${form}`).toBeLessThanOrEqual(JSON_MAX_BYTES_PER_CHAR);
      }
    }
    expect(Buffer.byteLength(fullyEscaped(EMOJI)) - 2).toBe(JSON_MAX_BYTES_PER_CHAR);
  });

  it("MESSAGE_MAX characters at 12 bytes each, plus the envelope, fit in MAX_BODY_BYTES", () => {
    expect(MESSAGE_MAX * JSON_MAX_BYTES_PER_CHAR + CHAT_ENVELOPE_MAX).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(CHAT_ENVELOPE_MAX).toBeGreaterThanOrEqual(16 * 1024);
  });

  it("the largest chat body the schema accepts — max-length message of emoji, every bounded field at its maximum — fits in MAX_BODY_BYTES with every character \\u-escaped, keys included", () => {
    // 20 parts (the maximum) joined with "\n": 14,981 + 19 × (1 + 1) = 15,000 characters.
    const parts = [
      { type: "text", text: EMOJI.repeat(MESSAGE_MAX - 19 * 2 + 19 - 19), state: "字".repeat(20) },
      ...Array.from({ length: 19 }, () => ({ type: "text", text: EMOJI, state: "字".repeat(20) })),
    ];
    const body = {
      conversationId: "00000000-0000-4000-8000-000000000000",
      message: { id: EMOJI.repeat(100), role: "user", parts },
      model: "字".repeat(100),
      mode: "conversational",
      temperature: 1.2345678901234567,
    };
    const parsed = chatBody.safeParse(JSON.parse(fullyEscaped(body)));
    expect(parsed.error?.issues).toBeUndefined();
    expect([...(parsed.data?.message ?? "")].length).toBe(MESSAGE_MAX);
    const size = Buffer.byteLength(fullyEscaped(body));
    expect(size).toBeGreaterThan(180_000);
    expect(size).toBeLessThanOrEqual(MAX_BODY_BYTES);
  });

  it("a message of MESSAGE_MAX emoji as Python's json.dumps sends it fits; one more is refused naming the character limit", () => {
    const max = { message: { text: EMOJI.repeat(MESSAGE_MAX) } };
    expect(chatBody.safeParse(JSON.parse(pythonDumps(max))).success).toBe(true);
    // 180,000 bytes: three times what a budget of 4 bytes per character (UTF-8 at most) would allow.
    expect(Buffer.byteLength(pythonDumps(max))).toBeGreaterThan(64 * 1024);
    expect(Buffer.byteLength(pythonDumps(max))).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(bytes(max)).toBeLessThanOrEqual(MAX_BODY_BYTES);
    const over = chatBody.safeParse({ message: { text: EMOJI.repeat(MESSAGE_MAX + 1) } });
    expect(over.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["message", `Must be at most ${MESSAGE_MAX} characters`],
    ]);
  });

  it("the memory preview takes the same message limit", () => {
    expect(previewBody.safeParse({ message: EMOJI.repeat(MESSAGE_MAX) }).success).toBe(true);
    expect(previewBody.safeParse({ message: EMOJI.repeat(MESSAGE_MAX + 1) }).success).toBe(false);
    expect(Buffer.byteLength(fullyEscaped({ message: EMOJI.repeat(MESSAGE_MAX) }))).toBeLessThanOrEqual(MAX_BODY_BYTES);
  });

  it("the agent's email draft at its longest body and subject, in emoji, every character \\u-escaped, fits too", () => {
    const body = {
      draft: {
        to: ["Maya Chen <maya@example.com>"],
        cc: [],
        bcc: [],
        subject: EMOJI.repeat(500),
        body: EMOJI.repeat(20_000),
      },
    };
    expect(sendDraftBody.safeParse(JSON.parse(fullyEscaped(body))).error?.issues).toBeUndefined();
    expect(Buffer.byteLength(fullyEscaped(body))).toBeLessThanOrEqual(MAX_BODY_BYTES);
  });
});
