/**
 * Settings speaks to the user (operator details only under "For administrators"); ending every
 * session asks first and the sign-in page says it was done; so does deleting the account; a
 * resolved "next Friday" shows on its memory card with its weekday, in the user's locale.
 */
import type { Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { expect, screenshot, sendAndWait, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 820 };
/** An environment variable's name (AUTH_GOOGLE_ID, OPENAI_API_KEY, LIFELINE_…) or a docs path. */
const OPERATOR_WORDS = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|docs\/|\.env/;

/** The page's visible text outside the administrators' section. */
async function textOutsideAdministrators(page: Page): Promise<string> {
  return page.locator("main").evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    copy.querySelector("#administrators")?.remove();
    return copy.textContent ?? "";
  });
}

/**
 * The whole page in one image: the app shell is exactly the viewport (only `main` scrolls), so the
 * viewport is made as tall as main's content for the shot, then restored.
 */
async function screenshotWhole(page: Page, name: string) {
  const viewport = page.viewportSize();
  if (!viewport) throw new Error("no viewport");
  const height = await page.locator("main").evaluate((main) => main.getBoundingClientRect().top + main.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.ceil(height) });
  await screenshot(page, name);
  await page.setViewportSize(viewport);
}

async function openSettings(page: Page) {
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  // Hydrated: the dialogs' triggers take clicks.
  await expect(page.getByRole("button", { name: "End all sessions…" })).toBeEnabled();
}

for (const [label, viewport, colorScheme] of [
  ["desktop", DESKTOP, "light"],
  ["phone", PHONE, "light"],
  ["desktop-dark", DESKTOP, "dark"],
] as const) {
  test.describe(`Settings on ${label}`, () => {
    test.use({ viewport, colorScheme });

    test("names no environment variable or doc outside the collapsed administrators' section", async ({ page }) => {
      await registerViaUi(page, `settings-${label}`);
      await openSettings(page);
      const outside = await textOutsideAdministrators(page);
      expect(outside).not.toMatch(OPERATOR_WORDS);
      // The user-facing lines say what is available, in plain words.
      await expect(page.getByTestId("dictation-status")).toHaveText(
        "Dictation is not available on this server: there is no microphone in the message box.",
      );
      await expect(page.getByTestId("gmail-unavailable")).toContainText("not available on this server");

      const admin = page.getByTestId("administrator-details");
      await expect(admin).not.toHaveAttribute("open");
      await expect(admin.getByTestId("retrieval-strategy")).toBeHidden();
      await screenshot(page, `settings-${label}`);
      await screenshotWhole(page, `settings-${label}-whole`);

      await admin.getByText("For administrators").click();
      await expect(admin.getByTestId("retrieval-strategy")).toBeVisible();
      await expect(admin.getByTestId("retrieval-strategy")).toContainText("LIFELINE_RETRIEVAL_STRATEGY: hybrid");
      await expect(admin.getByTestId("dictation-admin")).toContainText("OPENAI_API_KEY");
      await expect(admin.getByTestId("google-admin")).toContainText("AUTH_GOOGLE_ID");
      await screenshotWhole(page, `settings-${label}-administrators`);
    });
  });
}

test("End all sessions asks first, says what it ends, and the sign-in page says it was done", async ({
  page,
  browser,
}) => {
  const user = await registerViaUi(page, "end-all");
  // A second browser signed in to the same account: it is signed out too.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto("/login");
  await otherPage.getByLabel("Email").fill(user.email);
  await otherPage.getByLabel("Password").fill(user.password);
  await otherPage.getByRole("button", { name: "Sign in" }).click();
  await expect(otherPage).toHaveURL(/\/$/);

  await openSettings(page);
  await page.getByRole("button", { name: "End all sessions…" }).click();
  const dialog = page.getByRole("dialog", { name: "End all sessions?" });
  await expect(dialog).toContainText("signed out on every browser and device, this one included");
  await expect(dialog).toContainText("Every access token you created stops working");
  await screenshot(page, "settings-end-all-sessions-dialog");

  // Cancel changes nothing.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.getByTestId("account-email")).toHaveText(user.email);

  await page.getByRole("button", { name: "End all sessions…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "End all sessions", exact: true }).click();
  await expect(page).toHaveURL(/\/login\?notice=signed-out-everywhere$/);
  await expect(page.getByTestId("sign-in-notice")).toHaveText(
    "You were signed out everywhere: on every browser and device, and every access token was ended. Sign in again to continue.",
  );
  await screenshot(page, "sign-in-notice-signed-out-everywhere");

  await otherPage.goto("/settings");
  await expect(otherPage).toHaveURL(/\/login(?:\?|$)/);
  await expect(otherPage.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expect(otherPage.getByTestId("sign-in-notice")).toHaveCount(0);
  await other.close();
});

test("the sign-in page shows only its own notices: text in the URL is never shown", async ({ page }) => {
  for (const forged of ["Your%20account%20was%20locked.%20Call%20us", "%3Cb%3Ehi%3C%2Fb%3E", "constructor"]) {
    await page.goto(`/login?notice=${forged}`);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    await expect(page.getByTestId("sign-in-notice")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText("locked");
  }
});

test("deleting the account lands on the sign-in page, which says the account was deleted", async ({ page }) => {
  const user = await registerViaUi(page, "delete-notice");
  await openSettings(page);
  await page.getByRole("button", { name: "Delete account…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.getByLabel(/Type your email/).fill(user.email);
  await dialog.getByLabel("Current password").fill(user.password);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/login\?notice=account-deleted$/);
  await expect(page.getByTestId("sign-in-notice")).toHaveText(
    "Your account was deleted, with all its chats, memories and notes.",
  );
  await screenshot(page, "sign-in-notice-account-deleted");
});

test.describe("a resolved date on its memory card", () => {
  test.use({ locale: "en-GB", timezoneId: "Europe/London" });

  test('"next Friday" shows as the Friday of next week, with its weekday, in the user\'s locale', async ({ page }) => {
    test.setTimeout(120_000);
    await registerViaUi(page, "next-friday");
    const answer = await sendAndWait(page, "Remind me to call the plumber by next Friday");
    await expect(answer.getByTestId("extraction-status")).toHaveAttribute("data-status", "succeeded", {
      timeout: 60_000,
    });
    // The rule of docs/extraction.md § Dates, computed here on its own: the Friday of the week
    // after this one (weeks Monday to Sunday), from today in the browser's (and so the account's) zone.
    const expected = await page.evaluate(() => {
      const [y, m, d] = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" })
        .format(new Date())
        .split("-")
        .map(Number);
      const today = new Date(Date.UTC(y as number, (m as number) - 1, d as number));
      const isoDay = today.getUTCDay() || 7;
      const friday = new Date(today.getTime() + (7 - isoDay + 5) * 86_400_000);
      const sameYear = friday.getUTCFullYear() === today.getUTCFullYear();
      return new Intl.DateTimeFormat("en-GB", {
        weekday: "short",
        day: "numeric",
        month: "short",
        year: sameYear ? undefined : "numeric",
        timeZone: "UTC",
      }).format(friday);
    });
    expect(expected).toMatch(/^Fri,? \d{1,2} [A-Z][a-z]{2}( \d{4})?$/);

    await page.goto("/memories");
    const card = page.getByTestId("memory-card").filter({ hasText: "plumber" });
    await expect(card.getByTestId("memory-deadline")).toHaveText(`Due ${expected}`);
    await expect(card.getByTestId("memory-content")).toHaveText(`Needs to call the plumber by ${expected}`);
    await expect(card).not.toContainText(/\d{4}-\d{2}-\d{2}/);
    await screenshot(page, "memory-card-next-friday");
  });
});
