import { registerViaUi } from "./auth-helpers";
import { expect, screenshot, sendAndWait, test } from "./fixtures";

test("an answer rated down with a reason shows it after a reload, in its debug view and in the rated list", async ({
  page,
}) => {
  await registerViaUi(page, "ratings");
  const answer = await sendAndWait(page, "What should I cook tonight?");
  const bad = answer.getByRole("button", { name: "Bad answer" });
  await expect(bad).toHaveAttribute("aria-pressed", "false");
  await expect(answer.getByRole("button", { name: "Good answer" })).toHaveAttribute("aria-pressed", "false");

  await bad.click();
  await expect(bad).toHaveAttribute("aria-pressed", "true");
  const reason = page.getByRole("textbox", { name: "What was wrong with it? (optional)" });
  await reason.fill("It ignored that I am vegetarian");
  await screenshot(page, "rating-reason");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(reason).toBeHidden();

  await page.reload();
  const reloaded = page.getByTestId("message-assistant").first();
  await expect(reloaded.getByRole("button", { name: "Bad answer" })).toHaveAttribute("aria-pressed", "true");
  await expect(reloaded.getByRole("button", { name: "Good answer" })).toHaveAttribute("aria-pressed", "false");

  await reloaded.getByTestId("inspect-link").click();
  await expect(page.getByTestId("answer-rating-record")).toContainText("You rated this answer bad");
  await expect(page.getByTestId("answer-rating-record")).toContainText("It ignored that I am vegetarian");

  await page.getByRole("link", { name: "All bad answers" }).click();
  await expect(page).toHaveURL(/\/messages\/rated\?rating=down$/);
  const rated = page.getByTestId("rated-answer");
  await expect(rated).toHaveCount(1);
  await expect(rated).toContainText("Your reason: It ignored that I am vegetarian");
  await screenshot(page, "rated-answers");
  await page.getByRole("link", { name: "Good" }).click();
  await expect(page.getByText("No answers rated good yet.")).toBeVisible();

  // Clicking the chosen thumb again takes the rating back.
  await page.goBack();
  await rated.getByRole("link", { name: "Open in chat" }).click();
  const again = page.getByTestId("message-assistant").first();
  await again.getByRole("button", { name: "Bad answer" }).click();
  await expect(again.getByRole("button", { name: "Bad answer" })).toHaveAttribute("aria-pressed", "false");
  await page.goto("/messages/rated");
  await expect(page.getByText("No rated answers yet.")).toBeVisible();
});

test("rated answers open from Settings and the account menu, each row with the question it answered", async ({
  page,
}) => {
  await registerViaUi(page, "rated-reach");
  const answer = await sendAndWait(page, "What should I cook tonight?");
  await answer.getByRole("button", { name: "Good answer" }).click();
  await expect(answer.getByRole("button", { name: "Good answer" })).toHaveAttribute("aria-pressed", "true");

  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Rated answers" }).click();
  await expect(page).toHaveURL(/\/messages\/rated$/);
  const row = page.getByTestId("rated-answer");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("rated-question")).toHaveText("You asked What should I cook tonight?");
  await screenshot(page, "rated-answers-question");

  await page.goto("/settings");
  await page.getByRole("link", { name: "Rated answers" }).click();
  await expect(page).toHaveURL(/\/messages\/rated$/);
  await expect(page.getByTestId("rated-question")).toContainText("What should I cook tonight?");
});
