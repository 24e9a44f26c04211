import { test as base, expect, type Page } from "@playwright/test";

/** Fails a test whose browser logged an error; one that provokes a 4xx on purpose names it in `expectedBrowserErrors`. */
export const test = base.extend<{ browserErrors: string[]; expectedBrowserErrors: RegExp[] }>({
  expectedBrowserErrors: [[], { option: true }],
  browserErrors: [
    async ({ page, expectedBrowserErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
      await use(errors);
      const unexpected = errors.filter((error) => !expectedBrowserErrors.some((pattern) => pattern.test(error)));
      expect(unexpected, "browser console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Exact, so "Send message" does not match. */
export const messageBox = (page: Page) => page.getByRole("textbox", { name: "Message", exact: true });

/** The box is read-only until the page hydrates, and the toolbar hydrates with it: helpers that type call this first. */
export async function composerReady(page: Page) {
  await expect(messageBox(page)).toBeEditable();
}

/** Waits until the answer is stored (its Inspect link shows). */
export async function sendAndWait(page: Page, text: string) {
  const answers = page.getByTestId("message-assistant");
  const before = await answers.count();
  await composerReady(page);
  await messageBox(page).fill(text);
  await expect(page.getByRole("button", { name: "Send message" })).toBeEnabled();
  await messageBox(page).press("Enter");
  await expect(answers).toHaveCount(before + 1);
  const answer = answers.nth(before);
  await expect(answer.getByTestId("inspect-link")).toBeVisible({ timeout: 30_000 });
  return answer;
}

/** e2e/screenshots is git-ignored. */
export async function screenshot(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}

/** As a browser reports a tab sent to the background and brought back (headless pages stay visible on their own). */
export async function setVisibility(page: Page, state: "hidden" | "visible") {
  await page.evaluate((next) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => next });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => next === "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}
