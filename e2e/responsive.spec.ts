import type { Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { expect, screenshot, sendAndWait, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

/** Chat, then its debug view, then the memories page: one screenshot each, named `<page>-<suffix>`. */
async function screenshotPages(page: Page, suffix: string) {
  const answer = await sendAndWait(page, "My favourite city is Lisbon and I love `async` code");
  await expect(answer.getByTestId("extraction-status")).toHaveAttribute("data-status", "succeeded", {
    timeout: 60_000,
  });
  await screenshot(page, `chat-${suffix}`);
  await answer.getByTestId("inspect-link").click();
  await expect(page.getByRole("heading", { name: "Inspect this answer" })).toBeVisible();
  await screenshot(page, `debug-${suffix}`);
  await page.goto("/memories");
  await expect(page.getByTestId("memory-card").first()).toBeVisible();
  await screenshot(page, `memories-${suffix}`);
}

test.describe("on a phone", () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test("the sidebar is a drawer and the chat is usable", async ({ page }) => {
    test.setTimeout(120_000);
    await registerViaUi(page, "phone");
    // The desktop sidebar is hidden; the top bar opens it as a drawer.
    await expect(page.getByRole("complementary", { name: "Sidebar" })).toBeHidden();
    const answer = await sendAndWait(page, "Hello from my phone");
    await expect(answer).toBeVisible();
    const chatUrl = page.url();

    await page.getByRole("button", { name: "Open sidebar" }).click();
    const drawer = page.getByRole("dialog", { name: "Sidebar" });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole("link", { name: "Memories" })).toBeVisible();
    await drawer.getByRole("link", { name: "Memories" }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/memories$/);

    // Back to the chat from the drawer's list.
    await page.getByRole("button", { name: "Open sidebar" }).click();
    await page
      .getByRole("dialog", { name: "Sidebar" })
      .getByRole("list", { name: "Chats" })
      .getByRole("link")
      .first()
      .click();
    await expect(page).toHaveURL(chatUrl);
    await expect(page.getByTestId("message-user")).toContainText("Hello from my phone");

    // Escape closes the drawer (keyboard users).
    await page.getByRole("button", { name: "Open sidebar" }).click();
    await expect(page.getByRole("dialog", { name: "Sidebar" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Sidebar" })).toBeHidden();

    await page.goto("/");
    await screenshotPages(page, "mobile-light");
  });
});

test.describe("dark mode", () => {
  test.use({ colorScheme: "dark" });

  test("follows the system, can be switched, and every page reads well", async ({ page }) => {
    test.setTimeout(180_000);
    await registerViaUi(page, "dark");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await screenshotPages(page, "desktop-dark");

    await page.setViewportSize(PHONE);
    await page.goto("/");
    await screenshotPages(page, "mobile-dark");

    // The theme menu overrides the system preference.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole("button", { name: "Theme" }).first().click();
    await page.getByRole("menuitemradio", { name: "Light" }).click();
    await expect(page.locator("html")).not.toHaveClass(/dark/);
    await page.reload();
    await expect(page.locator("html")).not.toHaveClass(/dark/);
  });
});
