/**
 * The chat on a production server whose model is the strict OpenAI-compatible fake
 * (playwright.openai.config.ts): a stream cut mid-answer, an in-stream error event, an answer cut
 * at the output limit and a refusal each end the answer at once with a clear, specific message —
 * the cut and the error with Retry — and a reasoning model gets no temperature control.
 */
import type { Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { expect, messageBox, sendAndWait, test } from "./fixtures";

/** The page's alerts that say something (Next's route announcer is an empty one). */
const alerts = (page: Page) => page.getByRole("alert").filter({ hasText: /\S/ });

// A failed turn may make the browser log "Failed to load resource" for its stream; no other console error is allowed.
test.use({ expectedBrowserErrors: [/Failed to load resource/] });

test("a stream cut mid-answer keeps the partial text, says the connection dropped, and offers Retry", async ({
  page,
}) => {
  await registerViaUi(page, "openai-cut");
  const answer = await sendAndWait(page, "FAULT:cut tell me a story");
  await expect(answer).toContainText("Here is the first half of my answer");
  await expect(answer.getByTestId("answer-error")).toHaveText(
    "The connection to the model dropped before the answer was finished.Retry",
  );
  const alert = alerts(page);
  await expect(alert).toHaveCount(1);
  await expect(alert.getByRole("button", { name: "Retry" })).toBeVisible();
  // Final at once: after a reload the stored answer reads the same, never "streaming".
  await page.reload();
  const stored = page.getByTestId("message-assistant").last();
  await expect(stored).toContainText("Here is the first half of my answer");
  await expect(stored).toContainText("The connection to the model dropped before the answer was finished.");
});

test("an in-stream error event is said once, in one plain sentence with Retry, without rating buttons; its detail is in Inspect", async ({
  page,
}) => {
  await registerViaUi(page, "openai-error");
  const answer = await sendAndWait(page, "FAULT:error hello");
  const alert = alerts(page);
  await expect(alert).toHaveCount(1);
  await expect(alert).toHaveText("The model could not answer.Retry");
  await expect(answer).not.toContainText("The server had an error");
  await expect(page.getByText(/AI_APICallError|server_error|\[object Object\]/)).toHaveCount(0);
  await expect(answer.getByTestId("answer-rating")).toHaveCount(0);
  await answer.screenshot({ path: "e2e/screenshots/answer-error.png" });
  // After a reload the stored answer says the same, once.
  await page.reload();
  const stored = page.getByTestId("message-assistant").last();
  await expect(alerts(page)).toHaveCount(1);
  await expect(stored.getByTestId("answer-error")).toContainText("The model could not answer.");
  await expect(stored.getByTestId("answer-rating")).toHaveCount(0);
  // The provider's words are in Inspect.
  await stored.getByTestId("inspect-link").click();
  await expect(page.getByRole("heading", { name: "Inspect this answer" })).toBeVisible();
  await expect(page.getByText("The server had an error while processing your request.")).toBeVisible();
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

test("every finished answer keeps its controls without a reload: turns in a row, a regenerated answer", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "openai-controls");
  const controls = async (answer: ReturnType<typeof page.getByTestId>) => {
    await expect(answer.getByTestId("inspect-link")).toBeVisible();
    await expect(answer.getByTestId("answer-rating")).toBeVisible();
    await expect(answer.getByRole("button", { name: "Regenerate answer" })).toBeVisible();
    await expect(answer.getByTestId("memories-sent")).toBeVisible();
  };
  for (const text of ["hello there", "and again", "one more"]) {
    const answer = await sendAndWait(page, text);
    await controls(answer);
  }
  const newest = page.getByTestId("message-assistant").last();
  await newest.getByRole("button", { name: "Regenerate answer" }).click();
  await expect(page.getByTestId("message-assistant").last().getByTestId("versions")).toContainText("2 / 2", {
    timeout: 30_000,
  });
  await controls(page.getByTestId("message-assistant").last());
});
