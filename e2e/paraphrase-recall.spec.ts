import { registerViaUi } from "./auth-helpers";
import { expect, sendAndWait, test } from "./fixtures";

// With no key, the offline embedder (offline/wordvec-glove-v3) recalls by meaning —
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
  // The answer lists the memories its prompt held: the allergy, found by meaning.
  await expect(recall.getByTestId("message-meta")).toContainText("Sent 1 memory: 1 matched this message");
  await expect(recall).toContainText(/Allergy · matched your message/);

  // The debug view shows it: the allergy's line was in the model's input, through the semantic branch.
  // (The offline chat model's reply picks lines by its own word match, so its wording is not asserted.)
  await recall.getByTestId("inspect-link").click();
  await expect(page.getByRole("heading", { name: "Inspect this answer" })).toBeVisible();
  await expect(page.getByTestId("memory-line").filter({ hasText: /peanut/i })).toHaveCount(1);
  const included = page.getByTestId("candidate-table").locator('tr[data-fate="included"]');
  await expect(included.filter({ hasText: /peanut/i })).toHaveCount(1);
  await expect(included.filter({ hasText: /peanut/i })).toContainText("semantic");
});
