import { describe, expect, it } from "vitest";
import { AGENT_HELP, draftRequest, planNextStep, senderName } from "./planner";

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
    // Written before the user decides, the text says what was done, never a state it cannot know.
    expect(done.kind === "answer" && done.text).toBe(
      'I prepared an email to Maya Chen ("Re: Dinner on Friday?") for you to approve, edit or decline below.',
    );
  });

  it("a tool failure ends the plan with the mailbox's message; anything else gets the help", () => {
    expect(
      planNextStep("Find emails from Maya", [
        { tool: "search_emails", args: {}, result: { error: "Reconnect Google" } },
      ]),
    ).toEqual({ kind: "answer", text: "Reconnect Google" });
    expect(planNextStep("What's the weather?", [])).toEqual({ kind: "answer", text: AGENT_HELP });
  });

  it("reads a request about drafts from its structure: the noun, singular or plural, and what narrows it", () => {
    const list = { open: false, to: null, subject: null };
    for (const request of [
      "Show my drafts",
      "Do I have any drafts?",
      "What's in my drafts folder?",
      "list all saved drafts",
      "drafts",
    ])
      expect(draftRequest(request), request).toEqual(list);
    expect(draftRequest("Open the draft to Tom")).toEqual({ open: true, to: "Tom", subject: null });
    expect(draftRequest("can you read me my latest draft?")).toEqual({ open: true, to: null, subject: null });
    expect(draftRequest("show my drafts for Maya.")).toEqual({ open: false, to: "Maya", subject: null });
    expect(draftRequest("open the draft about the lease")).toEqual({ open: true, to: null, subject: "lease" });
    // "draft" as the verb, or as the topic of a search, is not a request about the drafts.
    for (const request of [
      "Draft a reply to Tom saying I'll be there",
      "Find emails about the draft",
      "Draft an email",
    ])
      expect(draftRequest(request), request).toBeNull();
  });

  it("lists the drafts, or opens the one asked for and shows its body", () => {
    const drafts = [
      {
        id: "d2",
        to: ["Tom Becker <tom@example.com>"],
        subject: "Re: Bouldering",
        date: maya.date,
        snippet: "10 works",
      },
      { id: "d1", to: ["maya@example.com"], subject: "Lease", date: maya.date, snippet: "About the lease" },
    ];
    expect(planNextStep("Show my drafts", [])).toEqual({ kind: "tool", tool: "list_drafts", args: { max: 25 } });
    const listed = planNextStep("Show my drafts", [{ tool: "list_drafts", args: {}, result: drafts }]);
    expect(listed.kind === "answer" && listed.text).toMatch(/^You have 2 saved drafts:/);
    expect(listed.kind === "answer" && listed.text).toContain("**Re: Bouldering** — to Tom Becker");

    const request = "open the draft to Maya";
    const open = planNextStep(request, [{ tool: "list_drafts", args: {}, result: drafts }]);
    expect(open).toEqual({ kind: "tool", tool: "read_draft", args: { id: "d1" } });
    const body = "Hi Maya,\n\nThe lease is signed.";
    const shown = planNextStep(request, [
      { tool: "list_drafts", args: {}, result: drafts },
      { tool: "read_draft", args: { id: "d1" }, result: { ...drafts[1], body } },
    ]);
    expect(shown.kind === "answer" && shown.text).toContain("Your draft to maya@example.com, “Lease”");
    expect(shown.kind === "answer" && shown.text).toContain("> Hi Maya,\n> \n> The lease is signed.");

    const none = planNextStep("open the draft to Priya", [{ tool: "list_drafts", args: {}, result: drafts }]);
    expect(none.kind === "answer" && none.text).toMatch(/^I found no draft to Priya\. Your saved drafts:/);
    expect(planNextStep("Show my drafts", [{ tool: "list_drafts", args: {}, result: [] }])).toEqual({
      kind: "answer",
      text: "You have no saved drafts.",
    });
  });

  it("names a sender from a From header", () => {
    expect(senderName('"Maya Chen" <maya@example.com>')).toBe("Maya Chen");
    expect(senderName("tom@example.com")).toBe("tom@example.com");
  });
});
