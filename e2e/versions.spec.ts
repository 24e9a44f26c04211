/**
 * Versions (docs/chat.md § Versions): editing an earlier message forks the chat there, "‹ 1 / 2 ›"
 * steps between the versions and shows each one's whole branch, and each version's debug view
 * shows the model input of its own branch only.
 */
import type { Locator, Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { expect, screenshot, sendAndWait, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

const userMessages = (page: Page) => page.getByTestId("message-user");

/** The messages the model received for `answer`, read from its debug view. */
async function modelInputOf(page: Page, answer: Locator): Promise<string> {
  const chatUrl = page.url();
  await answer.getByTestId("inspect-link").click();
  await expect(page).toHaveURL(/\/messages\/[^/]+\/debug/);
  const input = page.getByRole("list", { name: "Messages sent to the model" }).first();
  await expect(input).toBeVisible();
  const text = (await input.textContent()) ?? "";
  await page.goto(chatUrl);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  return text;
}

/** Three exchanges, then the second question edited: the chat shows the fork's new branch. */
async function forkedChat(page: Page) {
  await sendAndWait(page, "I live in Lisbon");
  await sendAndWait(page, "I have a cat");
  await sendAndWait(page, "What pet do I have?");
  const second = userMessages(page).nth(1);
  await second.hover();
  await second.getByRole("button", { name: "Edit message" }).click();
  await page.getByRole("textbox", { name: "Edit your message" }).fill("I have a dog");
  await page.getByRole("button", { name: "Save and resend" }).click();
  // Stored and synced: the edited message shows its place among the versions.
  await expect(userMessages(page).nth(1).getByTestId("versions")).toContainText("2 / 2", { timeout: 30_000 });
  await expect(userMessages(page)).toHaveCount(2);
}

test("edit an earlier message, step between its versions, and each version's model input is its own branch", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await registerViaUi(page, "versions");
  await forkedChat(page);
  await expect(userMessages(page).nth(1)).toContainText("I have a dog");
  const dogAnswer = page.getByTestId("message-assistant").last();
  await expect(dogAnswer.getByTestId("inspect-link")).toBeVisible({ timeout: 30_000 });
  await screenshot(page, "versions-desktop");

  // The new version's model input: the branch above the edit, not the version it replaced.
  const dogInput = await modelInputOf(page, dogAnswer);
  expect(dogInput).toContain("I live in Lisbon");
  expect(dogInput).toContain("I have a dog");
  expect(dogInput).not.toContain("I have a cat");
  expect(dogInput).not.toContain("What pet do I have?");

  // ‹ steps back to the first version: its whole branch is shown again, down to its last answer.
  await userMessages(page).nth(1).getByRole("button", { name: "Previous version" }).click();
  await expect(userMessages(page)).toHaveCount(3);
  await expect(userMessages(page).nth(1)).toContainText("I have a cat");
  await expect(userMessages(page).nth(1).getByTestId("versions")).toContainText("1 / 2");
  await expect(userMessages(page).nth(2)).toContainText("What pet do I have?");
  const catInput = await modelInputOf(page, page.getByTestId("message-assistant").last());
  expect(catInput).toContain("I have a cat");
  expect(catInput).toContain("What pet do I have?");
  expect(catInput).not.toContain("I have a dog");
  // The branch shown is the conversation's: a reload keeps it.
  await page.reload();
  await expect(userMessages(page)).toHaveCount(3);
  await expect(userMessages(page).nth(1)).toContainText("I have a cat");

  // › steps forward again; a message sent now continues the dog's branch.
  await userMessages(page).nth(1).getByRole("button", { name: "Next version" }).click();
  await expect(userMessages(page)).toHaveCount(2);
  await expect(userMessages(page).nth(1)).toContainText("I have a dog");
  const walks = await sendAndWait(page, "Does it need walks?");
  const walksInput = await modelInputOf(page, walks);
  expect(walksInput).toContain("I have a dog");
  expect(walksInput).not.toContain("I have a cat");

  // Regenerating an earlier answer adds a version of that answer.
  const firstAnswer = page.getByTestId("message-assistant").first();
  await firstAnswer.hover();
  await firstAnswer.getByRole("button", { name: "Regenerate answer" }).click();
  const regenerated = page.getByTestId("message-assistant").first();
  await expect(regenerated.getByTestId("versions")).toContainText("2 / 2", { timeout: 30_000 });
  await expect(userMessages(page)).toHaveCount(1);
  await expect(regenerated.getByTestId("inspect-link")).toBeVisible({ timeout: 30_000 });
  await screenshot(page, "versions-answer-desktop");
  // Its model input: the first question alone, nothing of either later branch.
  const regeneratedInput = await modelInputOf(page, regenerated);
  expect(regeneratedInput).toContain("I live in Lisbon");
  for (const later of ["I have a dog", "I have a cat", "Does it need walks?"]) {
    expect(regeneratedInput).not.toContain(later);
  }
  // ‹ on the answer steps back to its first version, with the branch that continued it.
  await page.getByTestId("message-assistant").first().getByRole("button", { name: "Previous version" }).click();
  await expect(page.getByTestId("message-assistant").first().getByTestId("versions")).toContainText("1 / 2");
  await expect(userMessages(page)).toHaveCount(3);
  await expect(userMessages(page).nth(2)).toContainText("Does it need walks?");
});

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("the versions control fits under the message", async ({ page }) => {
    test.setTimeout(120_000);
    await registerViaUi(page, "versions-phone");
    await forkedChat(page);
    const control = userMessages(page).nth(1).getByTestId("versions");
    await expect(control.getByRole("button", { name: "Previous version" })).toBeVisible();
    const box = await control.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    await screenshot(page, "versions-phone");
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, "versions-phone-dark");
  });
});
