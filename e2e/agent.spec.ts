import type { Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { composerReady, expect, screenshot, sendAndWait, test } from "./fixtures";

/** A new chat in agent mode (the mode applies from the next message). */
async function newAgentChat(page: Page) {
  await page.goto("/");
  // Picked before hydration, the select would show the agent while the chat's state kept the mode.
  await composerReady(page);
  await page.getByRole("combobox", { name: "Mode", exact: true }).selectOption({ label: "Gmail agent" });
}

test("agent mode on the demo mailbox: tool steps, an approval card, Sent after Approve, every model call in the debug view", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await registerViaUi(page, "agent");

  // A memory the agent's context will carry.
  const told = await sendAndWait(page, "My sister is Maya Chen");
  await expect(told.getByTestId("extraction-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });

  await newAgentChat(page);
  const reply = await sendAndWait(page, "Reply to Maya saying see you at 8");
  const steps = reply.getByTestId("agent-step");
  await expect(steps).toHaveText([
    "Searched mail for “from:Maya”: 1 found",
    "Prepared an email to Maya Chen <maya.chen@example.com>: waiting for your approval",
  ]);
  // The answer says what was done; the state is the card's, and the step line follows it.
  await expect(reply).toContainText("for you to approve, edit or decline below");
  await expect(reply).not.toContainText("is ready");
  // The chat says plainly which mailbox this is.
  await expect(reply.getByTestId("agent-mailbox-notice")).toContainText("demo mailbox");

  // The approval card: the exact draft, in the demo mailbox, waiting.
  const card = reply.getByTestId("mail-approval");
  await expect(card.getByText("Demo mailbox")).toBeVisible();
  await expect(card).toContainText("Maya Chen <maya.chen@example.com>");
  await expect(card).toContainText("Re: Dinner on Friday?");
  // A reply to Maya's email: it stays in her conversation (the demo mailbox threads as Gmail does).
  await expect(card.getByTestId("approval-thread")).toContainText("in the conversation of the email it answers");
  await expect(card).toContainText("See you at 8.");
  await expect(card.getByTestId("approval-status")).toHaveText(
    "Waiting for your approval: nothing is sent until you approve it.",
  );
  await screenshot(page, "agent-approval");

  // Edit the body, then approve: exactly the edited draft is sent.
  await card.getByRole("button", { name: "Edit" }).click();
  await card.getByLabel("Body").fill("See you at 8. I'll bring dessert.");
  await card.getByRole("button", { name: "Save draft" }).click();
  await expect(card).toContainText("I'll bring dessert.");
  await card.getByRole("button", { name: "Approve and send" }).click();
  await expect(card.getByTestId("approval-status")).toHaveText(
    "Sent — it is in the demo mailbox's Sent; nothing left Lifeline.",
  );
  await expect(card.getByRole("button", { name: "Approve and send" })).toHaveCount(0);
  await expect(steps.nth(1)).toHaveText("Prepared an email to Maya Chen <maya.chen@example.com>: sent");
  await expect(reply).not.toContainText("waiting for your approval", { ignoreCase: true });
  await screenshot(page, "agent-sent");

  // The demo mailbox's Sent has it (beside the two sent emails the demo inbox is seeded with).
  const sent = await sendAndWait(page, "Show my sent emails");
  await expect(sent.getByTestId("agent-step")).toHaveText("Searched mail for “in:sent”: 3 found");
  const sentReply = sent.getByRole("listitem").filter({ hasText: "Re: Dinner on Friday? — to Maya Chen" });
  await expect(sentReply).toContainText("See you at 8. I'll bring dessert.");

  // After a reload the card still says what became of the email.
  await page.reload();
  const stored = page.getByTestId("mail-approval");
  await expect(stored.getByTestId("approval-status")).toContainText("Sent");
  await expect(page.getByTestId("message-assistant").first().getByTestId("agent-step").nth(1)).toHaveText(
    "Prepared an email to Maya Chen <maya.chen@example.com>: sent",
  );
  await expect(page.getByTestId("message-assistant").first().getByTestId("agent-step")).toHaveCount(2);

  // The debug view of the reply: every model call of the loop, in order, with the tool calls between
  // them; the first call's system message carries the memory about Maya.
  await page.getByTestId("message-assistant").first().getByTestId("inspect-link").click();
  await expect(page.getByRole("heading", { name: "Inspect this answer" })).toBeVisible();
  const calls = page.getByTestId("model-call");
  await expect(calls).toHaveCount(3);
  await expect(calls.nth(0).getByTestId("memory-line").filter({ hasText: "Maya" })).not.toHaveCount(0);
  await expect(calls.nth(0).getByTestId("model-reply")).toContainText("→ search_emails");
  await expect(calls.nth(0).getByTestId("agent-tool-call")).toContainText(
    'search_emails({"max":1,"query":"from:Maya"})',
  );
  await expect(calls.nth(1).getByTestId("agent-tool-call")).toContainText("send_email(");
  await expect(calls.nth(2).getByTestId("model-reply")).toContainText("for you to approve, edit or decline below");
  // Each model call's usage, as the offline agent model reports it, and their total.
  for (let i = 0; i < 3; i++)
    await expect(calls.nth(i).getByTestId("model-call-usage")).toHaveText(
      / · [\d,]+ tokens \([\d,]+ in · [\d,]+ out\)$/,
    );
  const tokens = page.locator("dt", { hasText: /^Tokens$/ }).locator("xpath=..");
  await expect(tokens.locator("dd").first()).toHaveText(/^[\d,]+$/);
  await screenshot(page, "agent-debug");
});

test("an email to an address the mailbox has never seen carries a warning on its card", async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "agent-unfamiliar");
  await newAgentChat(page);
  const reply = await sendAndWait(page, "Reply to Maya saying see you at 8");
  const card = reply.getByTestId("mail-approval");
  await expect(card.getByTestId("approval-status")).toHaveText(
    "Waiting for your approval: nothing is sent until you approve it.",
  );
  // Maya's own address: she wrote to this mailbox, so nothing to warn about.
  await expect(card.getByTestId("approval-unfamiliar")).toHaveCount(0);

  // A guessed address: the mailbox knows maya.chen@example.com, never maya@example.com.
  await card.getByRole("button", { name: "Edit" }).click();
  await card.getByLabel("To").fill("maya@example.com");
  await card.getByRole("button", { name: "Save draft" }).click();
  const warning = card.getByTestId("approval-unfamiliar");
  await expect(warning).toHaveText(
    "No email in the demo mailbox is from or to maya@example.com. Check the address before you approve.",
  );
  await screenshot(page, "agent-approval-unfamiliar");
  // After a reload the card reads it again.
  await page.reload();
  await expect(page.getByTestId("mail-approval").getByTestId("approval-unfamiliar")).toContainText("maya@example.com");

  // Back to her known address: the warning goes.
  const stored = page.getByTestId("mail-approval");
  await stored.getByRole("button", { name: "Edit" }).click();
  await stored.getByLabel("To").fill("Maya Chen <maya.chen@example.com>");
  await stored.getByRole("button", { name: "Save draft" }).click();
  await expect(stored).toContainText("Maya Chen <maya.chen@example.com>");
  await expect(stored.getByTestId("approval-unfamiliar")).toHaveCount(0);
});

test("a declined email: the card and the line above it say declined, and nothing is sent", async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "agent-decline");
  await newAgentChat(page);
  const reply = await sendAndWait(page, "Reply to Tom saying 10 works for me");
  const step = reply.getByTestId("agent-step").nth(1);
  await expect(step).toHaveText("Prepared an email to Tom Becker <tom.becker@example.com>: waiting for your approval");
  const card = reply.getByTestId("mail-approval");
  await card.getByRole("button", { name: "Decline" }).click();
  await expect(card.getByTestId("approval-status")).toHaveText("Declined — nothing was sent.");
  await expect(step).toHaveText("Prepared an email to Tom Becker <tom.becker@example.com>: declined, nothing was sent");
  await expect(reply).not.toContainText("waiting for your approval", { ignoreCase: true });

  // The Sent folder has only the two emails the demo inbox is seeded with.
  const sent = await sendAndWait(page, "Show my sent emails");
  await expect(sent.getByTestId("agent-step")).toHaveText("Searched mail for “in:sent”: 2 found");
});

test("drafts: a saved draft is listed by “show my drafts” and opened, with its body", async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "agent-drafts");
  await newAgentChat(page);
  const saved = await sendAndWait(page, "Draft a reply to Tom saying 10 works for me, see you at the gym");
  await expect(saved.getByTestId("agent-step").nth(1)).toHaveText(
    "Saved a draft to Tom Becker <tom.becker@example.com>",
  );

  const listed = await sendAndWait(page, "Show my drafts");
  await expect(listed.getByTestId("agent-step")).toHaveText("Listed drafts: 1 found");
  await expect(
    listed.getByRole("listitem").filter({ hasText: "Re: Bouldering Saturday morning — to Tom Becker" }),
  ).toBeVisible();

  const opened = await sendAndWait(page, "Open the draft to Tom");
  await expect(opened.getByTestId("agent-step")).toHaveText([
    "Listed drafts: 1 found",
    "Opened the draft “Re: Bouldering Saturday morning”",
  ]);
  await expect(opened.locator("blockquote")).toHaveText("10 works for me, see you at the gym.");
  await screenshot(page, "agent-draft-opened");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await opened.scrollIntoViewIfNeeded();
  await screenshot(page, "agent-draft-opened-phone-dark");
});
