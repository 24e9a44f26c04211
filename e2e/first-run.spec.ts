/**
 * A new user's first run on the embedded default (the offline model): the banner is one line, the
 * starters show what Lifeline does, the offline model answers each of them sensibly, and on a phone
 * every starter sits above the message box.
 */
import { devices, type Locator, type Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { composerReady, expect, messageBox, test } from "./fixtures";

const DESKTOP = { width: 1280, height: 820 };
const { viewport: PHONE, deviceScaleFactor, isMobile, hasTouch, userAgent } = devices["iPhone 13"];

const starters = (page: Page) => page.getByRole("list", { name: "Suggestions" }).getByRole("button");

/** One line: no taller than its own line height plus its padding and border. */
async function expectOneLine(banner: Locator) {
  const { height, lineHeight, padding } = await banner.evaluate((element) => {
    const style = getComputedStyle(element);
    return {
      height: element.getBoundingClientRect().height,
      lineHeight: Number.parseFloat(style.lineHeight),
      padding:
        Number.parseFloat(style.paddingTop) +
        Number.parseFloat(style.paddingBottom) +
        Number.parseFloat(style.borderTopWidth) +
        Number.parseFloat(style.borderBottomWidth),
    };
  });
  expect(height).toBeLessThanOrEqual(lineHeight + padding + 1);
  // Nothing of it is cut off: the text fits its line.
  const cut = await banner.locator("> span").evaluate((element) => element.scrollWidth > element.clientWidth);
  expect(cut, "the banner's text is cut off").toBe(false);
}

async function pick(page: Page, text: string) {
  const answers = page.getByTestId("message-assistant");
  const before = await answers.count();
  await composerReady(page);
  await starters(page).filter({ hasText: text }).click();
  await expect(answers).toHaveCount(before + 1);
  const answer = answers.nth(before);
  await expect(answer.getByTestId("inspect-link")).toBeVisible({ timeout: 30_000 });
  return answer;
}

test.describe("the first run on the offline model", () => {
  test.use({ viewport: DESKTOP });

  test("the starters tell it something, recall it in a new chat, list what it remembers, and lead to Inspect", async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await registerViaUi(page, "first-run");
    const banner = page.getByTestId("offline-banner");
    await expect(banner).toContainText("Offline model");
    await expect(banner).toContainText("offline/lifeline-offline-1");
    await expectOneLine(banner);
    await expect(starters(page)).toHaveCount(3);
    await expect(page.getByText("Under each answer, Inspect shows exactly what the model received")).toBeVisible();
    await page.screenshot({ path: "e2e/screenshots/first-run-desktop.png" });

    // 1. Tell it something: it says what it took in, and saves it.
    const told = await pick(page, "I'm vegetarian and allergic to peanuts");
    await expect(told).toContainText("Thanks for telling me: you are vegetarian and you are allergic to peanuts.");
    const extraction = told.getByTestId("extraction-status");
    await expect(extraction).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
    await expect(extraction).toContainText("Saved 2 memories");
    // Its Inspect page shows what the extraction model received: the exchange, as the model got it.
    await told.getByTestId("inspect-link").click();
    const extractionInput = page.locator("#extraction-input");
    await expect(extractionInput.getByRole("heading", { name: "What the extraction model received" })).toBeVisible();
    await expect(extractionInput.getByTestId("extraction-model-call")).toHaveCount(1);
    await expect(extractionInput.getByTestId("extraction-model-call")).toContainText(
      "extraction: what the exchange adds",
    );
    await expect(extractionInput.getByTestId("extraction-model-call")).toContainText(
      "I'm vegetarian and allergic to peanuts",
    );

    // 2. In a new chat, ask about it: the answer comes from the memory.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New chat" }).click();
    await expect(page).toHaveURL(/\/$/);
    const recalled = await pick(page, "What should I avoid eating?");
    await expect(recalled).toContainText("allergic to peanuts");
    await expect(recalled).not.toContainText("Nothing you've told me");

    // 3. What it remembers: both memories, listed.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New chat" }).click();
    await expect(page).toHaveURL(/\/$/);
    const listed = await pick(page, "What do you remember about me?");
    await expect(listed).toContainText("Here's what I remember about you:");
    await expect(listed).toContainText("vegetarian");
    await expect(listed).toContainText("allergic to peanuts");

    // 4. Inspect: the exact input, with the memories the model was given.
    await listed.getByTestId("inspect-link").click();
    await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}\/debug$/);
    await expect(page.getByTestId("candidate-table")).toContainText("allergic to peanuts");
  });
});

test.describe("the first run on a phone", () => {
  test.use({ viewport: PHONE, deviceScaleFactor, isMobile, hasTouch, userAgent });

  test("the banner is one line and every starter sits above the message box", async ({ page }) => {
    await registerViaUi(page, "first-run-phone");
    await composerReady(page);
    const banner = page.getByTestId("offline-banner");
    await expect(banner).toBeVisible();
    await expectOneLine(banner);
    await expect(starters(page)).toHaveCount(3);
    const composerTop = (await messageBox(page).locator("xpath=ancestor::form[1]").boundingBox())?.y ?? 0;
    expect(composerTop).toBeGreaterThan(0);
    for (const starter of await starters(page).all()) {
      await expect(starter).toBeInViewport({ ratio: 1 });
      const box = await starter.boundingBox();
      expect((box?.y ?? 0) + (box?.height ?? 0), "a starter under the message box").toBeLessThanOrEqual(composerTop);
    }
    await page.screenshot({ path: "e2e/screenshots/first-run-phone.png" });
  });
});
