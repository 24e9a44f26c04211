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
  await expect(reply).toContainText("nothing is sent until you approve");
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
  await expect(page.getByTestId("message-assistant").first().getByTestId("agent-step")).toHaveCount(2);

  // The debug view of the reply: every model call of the loop, in order, with the tool calls between
  // them; the first call's system message carries the memory about Maya.
  await page.getByTestId("message-assistant").first().getByTestId("inspect-link").click();
  await expect(page.getByRole("heading", { name: "Why the assistant said this" })).toBeVisible();
  const calls = page.getByTestId("model-call");
  await expect(calls).toHaveCount(3);
  await expect(calls.nth(0).getByTestId("memory-line").filter({ hasText: "Maya" })).not.toHaveCount(0);
  await expect(calls.nth(0).getByTestId("model-reply")).toContainText("→ search_emails");
  await expect(calls.nth(0).getByTestId("agent-tool-call")).toContainText(
    'search_emails({"max":1,"query":"from:Maya"})',
  );
  await expect(calls.nth(1).getByTestId("agent-tool-call")).toContainText("send_email(");
  await expect(calls.nth(2).getByTestId("model-reply")).toContainText("approve it to send");
  await screenshot(page, "agent-debug");
});
