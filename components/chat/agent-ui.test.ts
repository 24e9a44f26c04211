import { describe, expect, it } from "vitest";
import { agentSteps, stepLabel } from "./agent-steps";
import { approvalsOf, failureText, type SendState, splitRecipients } from "./mail-approval";
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
    expect(steps.map((step) => stepLabel(step))).toEqual([
      "Searched mail for “from:maya”: 2 found",
      "Read “Lease”",
      "Prepared an email to a@b.co…",
      "Listed labels: failed — Gmail is not connected",
    ]);
  });

  it("says of a prepared email what its approval card shows now, never more", () => {
    const [step] = agentSteps(
      message([
        {
          type: "dynamic-tool",
          toolCallId: "1",
          toolName: "send_email",
          state: "output-available",
          input: { to: ["Maya <maya@x.org>"] },
          output: { status: "awaiting_approval", operationId: "op" },
        },
      ]),
    );
    if (!step) throw new Error("no step");
    const label = (state?: SendState) => stepLabel(step, state ? { op: state } : {});
    const state = (status: SendState["status"], interrupted = false): SendState => ({
      status,
      error: null,
      interrupted,
    });
    // Before the card has read the send, the line claims no state.
    expect(label()).toBe("Prepared an email to Maya <maya@x.org>");
    expect(label(state("pending_confirmation"))).toBe(
      "Prepared an email to Maya <maya@x.org>: waiting for your approval",
    );
    expect(label(state("approved"))).toBe("Prepared an email to Maya <maya@x.org>: sending…");
    expect(label(state("succeeded"))).toBe("Prepared an email to Maya <maya@x.org>: sent");
    expect(label(state("cancelled"))).toBe("Prepared an email to Maya <maya@x.org>: declined, nothing was sent");
    // Cancelled with a reason (its answer regenerated, its question edited) is not the user's decline.
    expect(label({ status: "cancelled", error: "its answer was regenerated", interrupted: false })).toBe(
      "Prepared an email to Maya <maya@x.org>: cancelled, nothing was sent",
    );
    expect(label(state("failed"))).toBe("Prepared an email to Maya <maya@x.org>: not sent, the mailbox failed");
    expect(label(state("failed", true))).toBe("Prepared an email to Maya <maya@x.org>: maybe sent (interrupted)");
    // Another card's state is not this one's.
    expect(stepLabel(step, { other: state("succeeded") })).toBe("Prepared an email to Maya <maya@x.org>");
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
