import { describe, expect, it } from "vitest";
import { AGENT_HELP, planNextStep, senderName } from "./planner";

const maya = {
  id: "m1",
  from: "Maya Chen <maya.chen@example.com>",
  to: ["me@example.com"],
  subject: "Dinner on Friday?",
  date: "2026-11-29T18:00:00.000Z",
  snippet: "Are you free?",
};

describe("the offline agent's plan", () => {
  it("searches by sender, then lists what it found", () => {
    expect(planNextStep("Find emails from Maya", [])).toEqual({
      kind: "tool",
      tool: "search_emails",
      args: { query: "from:Maya", max: 10 },
    });
    const step = planNextStep("Find emails from Maya", [{ tool: "search_emails", args: {}, result: [maya] }]);
    expect(step).toMatchObject({ kind: "answer" });
    expect(step.kind === "answer" && step.text).toContain("**Dinner on Friday?** — Maya Chen");
  });

  it("shows sent mail from the Sent folder, naming the recipients", () => {
    for (const request of ["Show my sent emails", "What's in my sent folder?", "Which emails have I sent?"]) {
      expect(planNextStep(request, [])).toEqual({
        kind: "tool",
        tool: "search_emails",
        args: { query: "in:sent", max: 10 },
      });
    }
    const sent = { ...maya, from: "me@example.com", to: ["Tom Becker <tom.becker@example.com>"], subject: "Re: Lease" };
    const step = planNextStep("Show my sent emails", [{ tool: "search_emails", args: {}, result: [sent] }]);
    expect(step.kind === "answer" && step.text).toContain("**Re: Lease** — to Tom Becker");
    expect(planNextStep("Show my sent emails", [{ tool: "search_emails", args: {}, result: [] }])).toEqual({
      kind: "answer",
      text: "You haven't sent any emails yet.",
    });
  });

  it("prepares a reply for approval in the original's thread: finds it first, never claims it was sent", () => {
    const request = "Reply to Maya saying see you at 8";
    expect(planNextStep(request, [])).toMatchObject({ tool: "search_emails", args: { query: "from:Maya" } });
    const compose = planNextStep(request, [{ tool: "search_emails", args: {}, result: [maya] }]);
    expect(compose).toEqual({
      kind: "tool",
      tool: "send_email",
      args: { to: [maya.from], subject: "Re: Dinner on Friday?", body: "See you at 8.", reply_to_id: maya.id },
    });
    const done = planNextStep(request, [
      { tool: "search_emails", args: {}, result: [maya] },
      { tool: "send_email", args: (compose as { args: Record<string, unknown> }).args, result: {} },
    ]);
    expect(done.kind === "answer" && done.text).toMatch(/approve it to send.*nothing is sent until you approve/);
  });

  it("a tool failure ends the plan with the mailbox's message; anything else gets the help", () => {
    expect(
      planNextStep("Find emails from Maya", [
        { tool: "search_emails", args: {}, result: { error: "Reconnect Google" } },
      ]),
    ).toEqual({ kind: "answer", text: "Reconnect Google" });
    expect(planNextStep("What's the weather?", [])).toEqual({ kind: "answer", text: AGENT_HELP });
  });

  it("names a sender from a From header", () => {
    expect(senderName('"Maya Chen" <maya@example.com>')).toBe("Maya Chen");
    expect(senderName("tom@example.com")).toBe("tom@example.com");
  });
});
