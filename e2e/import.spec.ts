import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { registerViaUi } from "./auth-helpers";
import { expect, screenshot, sendAndWait, test } from "./fixtures";

/** A ChatGPT export zip made from the parser's fixture: regenerated branches, images, tool and hidden messages. */
function chatGptExportZip(): string {
  const conversations = readFileSync(path.join(process.cwd(), "lib/import/fixtures/chatgpt-conversations.json"));
  const file = path.join(os.tmpdir(), `chatgpt-export-${Date.now()}.zip`);
  const zip = zipSync({
    "conversations.json": new Uint8Array(conversations),
    "user.json": new TextEncoder().encode("{}"),
  });
  writeFileSync(file, zip);
  return file;
}

test("a ChatGPT export imported in Settings is recalled in a new chat, and its source is the imported message", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await registerViaUi(page, "import");
  await page.goto("/settings");
  await page.getByTestId("import-file").setInputFiles(chatGptExportZip());

  const preview = page.getByTestId("import-preview");
  await expect(preview).toContainText("ChatGPT export: 2 conversations, 6 messages, from 2023-11-14 to 2024-03-09.");
  await expect(page.getByTestId("import-skipped")).toContainText("on a branch not kept (edited or regenerated): 3");
  await expect(page.getByTestId("import-choice")).toContainText("2 conversations chosen: 3 exchanges to read");
  await screenshot(page, "import-preview");

  await preview.getByRole("button", { name: "Import 2 conversations" }).click();
  const progress = page.getByTestId("import-progress");
  await expect(progress).toHaveAttribute("data-status", "done", { timeout: 90_000 });
  await expect(page.getByTestId("import-counts")).toContainText(
    /^3 of 3 exchanges read from 2 conversations · [1-9]\d* memories found · 0 failed$/,
  );
  await screenshot(page, "import-done");

  // The progress is the server's: a reload shows it again.
  await page.reload();
  await expect(page.getByTestId("import-progress")).toHaveAttribute("data-status", "done");

  await page.goto("/");
  const recall = await sendAndWait(page, "Which city do I live in?");
  await expect(recall.getByTestId("message-meta")).toContainText(/Used \d+ memor/);
  await expect(recall).toContainText(/Lisbon/);

  await page.goto("/memories");
  const card = page
    .getByTestId("memory-card")
    .filter({ hasText: /Lisbon/ })
    .first();
  await expect(card.getByTestId("memory-source-excerpt")).toContainText("I live in Lisbon");
  await card.getByTestId("memory-source").click();
  await expect(page).toHaveURL(/\/chat\/.+#message-/);
  await expect(page.getByTestId("message-user").first()).toContainText(
    "I live in Lisbon and I cycle to work every day.",
  );
  await expect(page.getByTestId("imported-notice")).toContainText("Imported from ChatGPT");
  await expect(page.getByRole("textbox", { name: "Message", exact: true })).toHaveCount(0);
  await screenshot(page, "import-source-chat");
});

test("a file that is not an export is refused with a reason, and nothing is sent", async ({ page }) => {
  await registerViaUi(page, "import-bad");
  await page.goto("/settings");
  await page
    .getByTestId("import-file")
    .setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello":"world"}') });
  await expect(page.getByRole("alert")).toContainText("The file is not a ChatGPT or Claude export");
  await expect(page.getByTestId("import-preview")).toHaveCount(0);
  expect(await (await page.request.get("/api/imports")).json()).toEqual({ imports: [] });
});
