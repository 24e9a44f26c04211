/**
 * The chat on a production server whose model is the strict OpenAI-compatible fake
 * (playwright.openai.config.ts): a stream cut mid-answer, an in-stream error event, an answer cut
 * at the output limit and a refusal each end the answer at once with a clear, specific message —
 * the cut and the error with Retry — and a reasoning model gets no temperature control. A finished
 * answer keeps its controls whatever the read of the saved chat after it does: unsettled, failing,
 * or slower than the next answer.
 */
import type { Page, Route } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { composerReady, expect, messageBox, sendAndWait, test } from "./fixtures";

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

/** The chat's read of the saved transcript after each answer (components/chat/chat.tsx syncTranscript). */
const TRANSCRIPT = "**/api/conversations/*/messages";
/** How many times that read is tried (chat.tsx SYNC_ATTEMPTS). */
const TRANSCRIPT_READS = 10;

type Transcript = { messages: { role: string; extraction: unknown; status: string }[] };

/** Settled as the chat reads it: nothing streaming, and the newest answer's extraction queued. */
function settled(body: Transcript): boolean {
  const newest = body.messages.findLast((message) => message.role === "assistant");
  return !body.messages.some((message) => message.status === "streaming") && newest?.extraction != null;
}

/** Sends `text` and returns the new answer once it has finished streaming (its controls may still be loading). */
async function send(page: Page, text: string) {
  const answers = page.getByTestId("message-assistant");
  const before = await answers.count();
  await messageBox(page).fill(text);
  await messageBox(page).press("Enter");
  await expect(answers).toHaveCount(before + 1);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible({ timeout: 30_000 });
  return answers.nth(before);
}

test("an answer gets its controls when the last read of the saved chat fails after unsettled ones", async ({
  page,
}) => {
  await registerViaUi(page, "openai-sync-last");
  let reads = 0;
  await page.route(TRANSCRIPT, async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    reads++;
    if (reads >= TRANSCRIPT_READS) return route.abort("connectionfailed");
    // Each earlier read finds the answer saved but its extraction not queued yet.
    const response = await route.fetch();
    const body = (await response.json()) as Transcript;
    const newest = body.messages.findLast((message) => message.role === "assistant");
    if (newest) newest.extraction = null;
    return route.fulfill({ response, json: body });
  });
  const answer = await send(page, "hello there");
  await expect(answer.getByTestId("inspect-link")).toBeVisible();
  await expect(answer.getByRole("button", { name: "Regenerate answer" })).toBeVisible();
  expect(reads).toBe(TRANSCRIPT_READS);
  await expect(page.getByTestId("transcript-sync-failure")).toHaveCount(0);
});

test("an answer whose saved chat cannot be read says so, and loading it again brings its controls", async ({
  page,
}) => {
  await registerViaUi(page, "openai-sync-down");
  const down = (route: Route) =>
    route.request().method() === "GET" ? route.abort("connectionfailed") : route.fallback();
  await page.route(TRANSCRIPT, down);
  const answer = await send(page, "hello there");
  const failure = page.getByTestId("transcript-sync-failure");
  await expect(failure).toContainText("could not be loaded", { timeout: 30_000 });
  await expect(failure).toContainText("Could not reach the server.");
  await expect(answer.getByTestId("inspect-link")).toHaveCount(0);
  await page.unroute(TRANSCRIPT, down);
  await failure.getByRole("button", { name: "Load again" }).click();
  await expect(answer.getByTestId("inspect-link")).toBeVisible();
  await expect(answer.getByRole("button", { name: "Regenerate answer" })).toBeVisible();
  await expect(failure).toHaveCount(0);
});

test("a slow read of the saved chat from an earlier answer never replaces a later answer", async ({ page }) => {
  await registerViaUi(page, "openai-sync-stale");
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let delivered = () => {};
  const staleDelivered = new Promise<void>((resolve) => {
    delivered = resolve;
  });
  let held = false;
  await page.route(TRANSCRIPT, async (route) => {
    if (route.request().method() !== "GET" || held) return route.fallback();
    held = true;
    // The first answer's read: taken once that answer is settled, delivered after the second answer.
    let response = await route.fetch();
    let body = (await response.json()) as Transcript;
    while (!settled(body)) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      response = await route.fetch();
      body = (await response.json()) as Transcript;
    }
    await gate;
    await route.fulfill({ response, json: body });
    delivered();
  });
  await composerReady(page);
  await send(page, "hello there");
  const second = await sendAndWait(page, "and again");
  await expect(second.getByRole("button", { name: "Regenerate answer" })).toBeVisible();
  release();
  await staleDelivered;
  // Let the page handle the delivered read: two frames after it.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
  );
  await expect(page.getByTestId("message-assistant")).toHaveCount(2);
  await expect(second.getByTestId("inspect-link")).toBeVisible();
  await expect(second.getByRole("button", { name: "Regenerate answer" })).toBeVisible();
});
