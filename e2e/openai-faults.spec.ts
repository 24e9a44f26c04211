/**
 * The chat on a production server whose model is the strict OpenAI-compatible fake
 * (playwright.openai.config.ts): a stream cut mid-answer, an in-stream error event, an answer cut
 * at the output limit and a refusal each end the answer at once with a clear, specific message —
 * the cut and the error with Retry — and a reasoning model gets no temperature control.
 */
import { registerViaUi } from "./auth-helpers";
import { expect, messageBox, sendAndWait, test } from "./fixtures";

// A failed turn may make the browser log "Failed to load resource" for its stream; no other console error is allowed.
test.use({ expectedBrowserErrors: [/Failed to load resource/] });

test("a stream cut mid-answer keeps the partial text, says the connection dropped, and offers Retry", async ({
  page,
}) => {
  await registerViaUi(page, "openai-cut");
  const answer = await sendAndWait(page, "FAULT:cut tell me a story");
  await expect(answer).toContainText("Here is the first half of my answer");
  await expect(answer).toContainText("the connection to the model dropped before the answer was finished");
  const alert = page.getByRole("alert");
  await expect(alert.getByRole("button", { name: "Retry" })).toBeVisible();
  // Final at once: after a reload the stored answer reads the same, never "streaming".
  await page.reload();
  const stored = page.getByTestId("message-assistant").last();
  await expect(stored).toContainText("Here is the first half of my answer");
  await expect(stored).toContainText("the connection to the model dropped");
});

test("an in-stream error event shows its message, not [object Object]", async ({ page }) => {
  await registerViaUi(page, "openai-error");
  const answer = await sendAndWait(page, "FAULT:error hello");
  await expect(answer).toContainText("The server had an error while processing your request.");
  await expect(page.getByText("[object Object]")).toHaveCount(0);
  await expect(page.getByRole("alert").getByRole("button", { name: "Retry" })).toBeVisible();
});

test("an answer cut at the output limit says so, and a refusal is shown as one", async ({ page }) => {
  await registerViaUi(page, "openai-finish");
  const cut = await sendAndWait(page, "FAULT:length explain everything");
  await expect(cut).toContainText("This answer runs on until it");
  await expect(cut.getByTestId("answer-notice")).toHaveText(/cut off: the model reached its output limit/);

  const refused = await sendAndWait(page, "FAULT:refusal do something bad");
  await expect(refused).toContainText("I'm sorry, I can't help with that.");
  await expect(refused.getByTestId("answer-notice")).toHaveText("The model declined to answer this.");
});

test("a reasoning model has no temperature control, and answers", async ({ page }) => {
  await registerViaUi(page, "openai-reasoning");
  await expect(page.getByRole("button", { name: /^Temperature/ })).toBeVisible();
  await page.getByRole("combobox", { name: "Model" }).selectOption("gpt-5-mini");
  await expect(page.getByRole("button", { name: /^Temperature/ })).toHaveCount(0);
  await expect(messageBox(page)).toBeVisible();
  const answer = await sendAndWait(page, "hello there");
  await expect(answer).toContainText("A plain answer.");
});
