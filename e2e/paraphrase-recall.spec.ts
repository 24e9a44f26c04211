import { registerViaUi } from "./auth-helpers";
import { expect, sendAndWait, test } from "./fixtures";

// Issue 15: with no key, the offline embedder (offline/wordvec-glove-v1) recalls by meaning —
// "avoid eating" shares no word with "allergic to peanuts".
test("a new chat recalls a stated peanut allergy when asked what to avoid eating", async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "paraphrase");

  const stated = await sendAndWait(page, "I'm allergic to peanuts.");
  const extraction = stated.getByTestId("extraction-status");
  await expect(extraction).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  await expect(extraction).toContainText(/Saved \d+ memor/);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New chat" }).click();
  await expect(page).toHaveURL(/\/$/);
  const recall = await sendAndWait(page, "What should I avoid eating?");
  await expect(recall).toContainText(/peanut/i);

  // The debug view shows why: the allergy reached the prompt through the semantic branch.
  await recall.getByTestId("inspect-link").click();
  await expect(page.getByRole("heading", { name: "Why the assistant said this" })).toBeVisible();
  const included = page.getByTestId("candidate-table").locator('tr[data-fate="included"]');
  await expect(included.filter({ hasText: /peanut/i })).toHaveCount(1);
  await expect(included.filter({ hasText: /peanut/i })).toContainText("semantic");
});
