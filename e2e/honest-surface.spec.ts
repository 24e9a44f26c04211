/**
 * What the surface says is what happened: an undo that undoes (a deleted memory's text stays in
 * the records of past answers for the undo window, and Inspect says so; "Delete now" removes it at
 * once), and dates in the user's form with the exact stored value on hover.
 */
import type { Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { expect, sendAndWait, test } from "./fixtures";

const DESKTOP = { width: 1280, height: 820 };

/** Creates a memory as a script would (docs/api.md), pinned so that every answer is sent it. */
async function pinnedMemory(page: Page, content: string): Promise<string> {
  const created = await page.request.post("/api/memories", { data: { content } });
  expect(created.status()).toBe(201);
  const { memory } = (await created.json()) as { memory: { id: string } };
  expect((await page.request.patch(`/api/memories/${memory.id}`, { data: { pinned: true } })).status()).toBe(200);
  return memory.id;
}

test.use({ viewport: DESKTOP });

test("undo inside the window restores a past answer's record; Inspect says what is deleted now; Delete now removes the text", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await registerViaUi(page, "undo-window");
  await pinnedMemory(page, "Has a parrot named Quillnestor");
  const kiteId = await pinnedMemory(page, "Flies a red kite on Sundays");
  const answer = await sendAndWait(page, "hello");
  const inspect = (await answer.getByTestId("inspect-link").getAttribute("href")) ?? "";

  // Delete the parrot on /memories: the toast offers Undo and Delete now. Undo.
  await page.goto("/memories");
  const parrot = page.getByTestId("memory-card").filter({ hasText: "Quillnestor" });
  await parrot.getByRole("button", { name: /^Delete memory/ }).click();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Memory deleted" });
  await expect(toast.getByRole("button", { name: "Undo" })).toBeVisible();
  await expect(toast.getByRole("button", { name: "Delete now" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/delete-toast.png" });
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("Restored")).toBeVisible();

  // The answer's record is whole: no notice, the line sent for the parrot reads as it was sent.
  await page.goto(inspect);
  await expect(page).toHaveTitle(/Inspect this answer/);
  await expect(page.getByTestId("redaction-notice")).toHaveCount(0);
  await expect(page.getByTestId("memory-line").filter({ hasText: "Quillnestor" })).toHaveCount(1);

  // Deleted without "now" (a script's DELETE): inside the window the record keeps the text, and says until when.
  expect((await page.request.delete(`/api/memories/${kiteId}`)).status()).toBe(200);
  await page.reload();
  const pending = page.getByTestId("redaction-notice-pending");
  await expect(pending).toContainText("A memory of this record was deleted just now (it was sent to the model)");
  await expect(pending.locator("time")).toHaveAttribute("title", /^\d{4}-\d{2}-\d{2}T/);
  await expect(page.getByTestId("memory-line").filter({ hasText: "red kite" })).toHaveCount(1);
  await page.getByTestId("redaction-notice").screenshot({ path: "e2e/screenshots/redaction-notice-pending.png" });

  // Delete the parrot again, now for good: its text leaves the record at once.
  await page.goto("/memories");
  await parrot.getByRole("button", { name: /^Delete memory/ }).click();
  await toast.getByRole("button", { name: "Delete now" }).click();
  await expect(page.getByText("Deleted for good")).toBeVisible();
  await page.goto(inspect);
  await expect(page.getByTestId("redaction-notice-gone")).toContainText(
    "A memory of this record was deleted since (it was sent to the model). This record no longer keeps its text",
  );
  await expect(page.getByTestId("memory-line").filter({ hasText: "Quillnestor" })).toHaveCount(0);
  await page.getByTestId("redaction-notice").screenshot({ path: "e2e/screenshots/redaction-notice-gone.png" });
});

test("an answer's dates read in the user's form, in the chat and in Inspect, with the written date on hover", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "dates");
  await pinnedMemory(page, "Passport renewal is due 2031-03-14");
  const answer = await sendAndWait(page, "What do you remember about me?");
  const date = answer.locator('time[datetime="2031-03-14"]').first();
  await expect(date).toHaveAttribute("title", "2031-03-14");
  const shown = (await date.textContent()) ?? "";
  expect(shown).toMatch(/Mar/);
  await expect(answer).not.toContainText("2031-03-14");
  await answer.getByTestId("inspect-link").click();
  await expect(page.getByRole("heading", { name: "Inspect this answer" })).toBeVisible();
  const section = page.locator("#answer");
  await expect(section.locator('time[datetime="2031-03-14"]').first()).toHaveText(shown);
  await expect(page.locator("header time, p time").first()).toHaveAttribute("title", /^\d{4}-\d{2}-\d{2}T/);
});
