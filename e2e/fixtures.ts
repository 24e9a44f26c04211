import { test as base, expect, type Page } from "@playwright/test";

/**
 * Every spec's `test`: collects the browser's console errors and uncaught page errors, and fails
 * the test at its end if there were any. A test that provokes an error response on purpose (Chromium
 * logs every 4xx as a console error) names it with `test.use({ expectedBrowserErrors: [/…/] })`.
 */
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

/** The chat's message box (exact, so "Send message" does not match). */
export const messageBox = (page: Page) => page.getByRole("textbox", { name: "Message", exact: true });

/**
 * Waits until a chat page works, as a user sees it: the message box takes typing. It is read-only
 * until the page has hydrated (components/chat/composer.tsx), and the toolbar's controls hydrate
 * with it — so a helper that types, or picks a model or mode, calls this first.
 */
export async function composerReady(page: Page) {
  await expect(messageBox(page)).toBeEditable();
}

/**
 * Sends `text` in the current chat and waits until the answer is stored (its Inspect link shows).
 * Like a user, it types once the box takes typing, and presses Enter once Send is enabled.
 */
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

/** Full-page screenshot into e2e/screenshots (git-ignored). */
export async function screenshot(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}
