import { describe, expect, it } from "vitest";
import { mailboxNoticeAnswerId } from "./agent-steps";
import type { ChatMessage } from "./types";

const step = { type: "dynamic-tool", toolCallId: "1", toolName: "search_emails", state: "output-available", input: {} };
const mailbox = (kind: string) => ({ type: "data-agent-mailbox", id: "mailbox", data: { kind } });
const answer = (id: string, parts: unknown[]): ChatMessage => ({ id, role: "assistant", parts }) as ChatMessage;
const question: ChatMessage = { id: "q", role: "user", parts: [{ type: "text", text: "Reply to Maya" }] };

describe("the demo-mailbox notice, once per conversation", () => {
  it("goes to the first answer that worked on the demo mailbox, not to every one", () => {
    const messages = [question, answer("a1", [mailbox("demo"), step]), question, answer("a2", [mailbox("demo"), step])];
    expect(mailboxNoticeAnswerId(messages)).toBe("a1");
  });

  it("skips answers with no mailbox step (the notice sits above the steps) and chat-mode answers", () => {
    const messages = [
      answer("chat", [{ type: "text", text: "Hello" }]),
      answer("no-steps", [mailbox("demo"), { type: "text", text: "Hi" }]),
      answer("steps", [mailbox("demo"), step]),
    ];
    expect(mailboxNoticeAnswerId(messages)).toBe("steps");
  });

  it("is null when the agent works on Gmail", () => {
    expect(mailboxNoticeAnswerId([answer("g", [mailbox("gmail"), step])])).toBeNull();
  });
});
