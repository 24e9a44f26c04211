/**
 * Dictation in Chromium with a fake microphone playing real speech (playwright.dictation.config.ts):
 * record (level meter, time, the limit said), stop, the transcript lands in the message box and is
 * not sent, edit it, send it; the answer's debug record says the question was dictated and edited.
 * A denied microphone says so. Screenshots: e2e/screenshots/dictation-recording.png and
 * dictation-transcript.png.
 */
import { registerViaUi } from "./auth-helpers";
import { expect, messageBox, screenshot, test } from "./fixtures";

const DICTATED = "Remind me to water the tomatoes on Friday.";

test("records, transcribes into the message box for review, and the sent message's debug record marks dictation", async ({
  page,
}) => {
  await registerViaUi(page, "dictation");
  await page.getByRole("button", { name: "Dictate" }).click();

  const recording = page.getByRole("group", { name: "Recording" });
  await expect(recording).toBeVisible();
  await expect(messageBox(page)).toBeHidden();
  await expect(page.getByText(/^Recording stops by itself after 5 minutes\. ✓ transcribes/)).toBeVisible();
  await expect(recording).toContainText("/ 5:00");
  // The meter follows the microphone: the fake device's speech moves it.
  await expect
    .poll(() => page.getByRole("meter", { name: "Microphone level" }).evaluate((m) => (m as HTMLMeterElement).value))
    .toBeGreaterThan(0);
  await expect(page.getByTestId("recording-elapsed")).toHaveText(/^0:0[2-9]$/);
  await screenshot(page, "dictation-recording");

  await page.getByRole("button", { name: "Stop and transcribe" }).click();
  await expect(messageBox(page)).toHaveValue(DICTATED);
  await expect(messageBox(page)).toBeFocused();
  // Nothing was sent: the transcript waits in the box.
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await screenshot(page, "dictation-transcript");

  const edited = `${DICTATED} And the basil.`;
  await messageBox(page).fill(edited);
  await messageBox(page).press("Enter");
  await expect(page.getByTestId("message-user")).toHaveText(edited);
  const answer = page.getByTestId("message-assistant").first();
  await expect(answer.getByTestId("inspect-link")).toBeVisible({ timeout: 30_000 });
  await answer.getByTestId("inspect-link").click();
  const record = page.getByTestId("dictation-record");
  await expect(record).toContainText("The question was dictated.");
  await expect(record).toContainText("gpt-4o-mini-transcribe transcribed");
  await expect(record).toContainText("you edited the transcript before sending");
  await expect(record).toContainText(DICTATED);
});

test("Cancel discards the recording; a later one is added after what was typed", async ({ page }) => {
  await registerViaUi(page, "dictation-cancel");
  const uploads: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/transcribe")) uploads.push(request.method());
  });
  await messageBox(page).fill("Typed first.");
  await page.getByRole("button", { name: "Dictate" }).click();
  await expect(page.getByTestId("recording-elapsed")).toHaveText(/^0:0[1-9]$/);
  await page.getByRole("button", { name: "Cancel recording" }).click();
  await expect(messageBox(page)).toHaveValue("Typed first.");

  // A cancelled recording's upload would have gone before this one's: only one reaches the server.
  await page.getByRole("button", { name: "Dictate" }).click();
  await expect(page.getByTestId("recording-elapsed")).toHaveText(/^0:0[1-9]$/);
  await page.getByRole("button", { name: "Stop and transcribe" }).click();
  await expect(messageBox(page)).toHaveValue(`Typed first. ${DICTATED}`);
  expect(uploads).toEqual(["POST"]);
});

test("Settings says that recordings are not stored, and administrators which model transcribes", async ({ page }) => {
  await registerViaUi(page, "dictation-settings");
  await page.goto("/settings");
  await expect(page.getByTestId("dictation-status")).toHaveText(
    "The microphone in the message box records what you say and turns it into text in the box, for you to review before sending. Recordings stop after 5 minutes; the audio is not stored.",
  );
  await page.getByText("For administrators").click();
  await expect(page.getByTestId("dictation-admin")).toHaveText(
    "Transcribed by gpt-4o-mini-transcribe (LIFELINE_TRANSCRIPTION_MODEL).",
  );
});

test("a denied microphone says how to allow it", async ({ page }) => {
  await registerViaUi(page, "dictation-denied");
  await page.getByRole("button", { name: "Dictate" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Microphone" })).toContainText(
    "Microphone access is blocked. Allow the microphone for this site in your browser to dictate.",
  );
  await expect(page.getByRole("group", { name: "Recording" })).toHaveCount(0);
  await expect(messageBox(page)).toBeVisible();
});
