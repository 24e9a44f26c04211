import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import { CHAT_ENVELOPE_MAX, chatBody, MESSAGE_MAX } from "./chat";
import { previewBody } from "./memories";

const EMOJI = "😀"; // one character, 4 bytes of UTF-8, 2 UTF-16 units
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("the chat message limit fits the body limit", () => {
  it("MESSAGE_MAX characters at 4 bytes each, plus the envelope, fit in MAX_BODY_BYTES", () => {
    expect(MESSAGE_MAX * 4 + CHAT_ENVELOPE_MAX).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(CHAT_ENVELOPE_MAX).toBeGreaterThanOrEqual(4096);
  });

  it("the largest chat body the schema accepts — max-length message of 4-byte emoji, every bounded field at its maximum — is under 64 KB", () => {
    // 20 parts (the maximum) joined with "\n": 14,962 + 19 × (1 + 1) + … = 15,000 characters.
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
    const parsed = chatBody.safeParse(body);
    expect(parsed.error?.issues).toBeUndefined();
    expect([...(parsed.data?.message ?? "")].length).toBe(MESSAGE_MAX);
    expect(bytes(body)).toBeLessThanOrEqual(MAX_BODY_BYTES);
  });

  it("a message of MESSAGE_MAX emoji is accepted; one more is refused naming the character limit", () => {
    expect(chatBody.safeParse({ message: { text: EMOJI.repeat(MESSAGE_MAX) } }).success).toBe(true);
    expect(bytes({ message: { text: EMOJI.repeat(MESSAGE_MAX) } })).toBeLessThanOrEqual(MAX_BODY_BYTES);
    const over = chatBody.safeParse({ message: { text: EMOJI.repeat(MESSAGE_MAX + 1) } });
    expect(over.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["message", `Must be at most ${MESSAGE_MAX} characters`],
    ]);
  });

  it("the memory preview takes the same message limit", () => {
    expect(previewBody.safeParse({ message: EMOJI.repeat(MESSAGE_MAX) }).success).toBe(true);
    expect(previewBody.safeParse({ message: EMOJI.repeat(MESSAGE_MAX + 1) }).success).toBe(false);
  });
});
