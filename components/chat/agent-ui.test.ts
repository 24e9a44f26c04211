import { describe, expect, it } from "vitest";
import { agentSteps, stepLabel } from "./agent-steps";
import { approvalsOf, failureText, splitRecipients } from "./mail-approval";
import type { ChatMessage } from "./types";

const message = (parts: unknown[]): ChatMessage => ({ id: "a", role: "assistant", parts }) as ChatMessage;

describe("the agent's steps in the chat", () => {
  it("labels each mailbox step by what it did and what came of it", () => {
    const steps = agentSteps(
      message([
        {
          type: "dynamic-tool",
          toolCallId: "1",
          toolName: "search_emails",
          state: "output-available",
          input: { query: "from:maya" },
          output: [{ id: "x" }, { id: "y" }],
        },
        {
          type: "dynamic-tool",
          toolCallId: "2",
          toolName: "read_email",
          state: "output-available",
          input: { id: "x" },
          output: { id: "x", subject: "Lease" },
        },
        {
          type: "dynamic-tool",
          toolCallId: "3",
          toolName: "send_email",
          state: "input-available",
          input: { to: ["a@b.co"] },
        },
        {
          type: "dynamic-tool",
          toolCallId: "4",
          toolName: "list_labels",
          state: "output-available",
          input: {},
          output: { error: "Gmail is not connected" },
        },
        { type: "text", text: "done" },
      ]),
    );
    expect(steps.map(stepLabel)).toEqual([
      "Searched mail for “from:maya”: 2 found",
      "Read “Lease”",
      "Prepared an email to a@b.co…",
      "Listed labels: failed — Gmail is not connected",
    ]);
  });

  it("finds the approval cards among the parts", () => {
    const draft = { to: ["a@b.co"], cc: [], bcc: [], subject: "Hi", body: "Hello" };
    expect(
      approvalsOf([
        { type: "text" },
        { type: "data-mail-approval", id: "op", data: { operationId: "op", draft } } as never,
      ]),
    ).toEqual([{ operationId: "op", draft }]);
  });

  it("splits recipients at commas outside <…>", () => {
    expect(splitRecipients('"Chen, Maya" <maya@x.org>, tom@y.org , ')).toEqual([
      '"Chen, Maya" <maya@x.org>',
      "tom@y.org",
    ]);
  });
});

describe("a failed send's card", () => {
  it("says not sent when the mailbox refused, and maybe sent when the sending process stopped", () => {
    expect(failureText({ error: "Gmail refused the recipient", interrupted: false })).toBe(
      "Not sent: Gmail refused the recipient.",
    );
    expect(failureText({ error: "Lifeline stopped while sending it", interrupted: true })).toBe(
      "Maybe sent: Lifeline stopped while sending it.",
    );
  });
});
