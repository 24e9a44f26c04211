/**
 * Chat like the peers, and layout: regenerate and edit, the title after a suggestion,
 * the metadata line that keeps its place, memories in the user's words with dates in the user's
 * locale and time zone, search by meaning, the sticky sidebar and account menu, and the phone
 * toolbar and drawer.
 */
import type { Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { expect, messageBox, screenshot, sendAndWait, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

/** The id of an answer's stored message, read from its Inspect link. */
async function answerId(page: Page): Promise<string> {
  const href = await page.getByTestId("message-assistant").last().getByTestId("inspect-link").getAttribute("href");
  return /\/messages\/([^/]+)\/debug/.exec(href ?? "")?.[1] ?? "";
}

test.describe("desktop", () => {
  test.use({ timezoneId: "Pacific/Auckland", locale: "en-US" });

  test("regenerate and edit keep the old exchange as a version; a suggestion's chat gets a title", async ({ page }) => {
    test.setTimeout(120_000);
    await registerViaUi(page, "regen");
    await page.getByRole("list", { name: "Suggestions" }).getByRole("button").first().click();
    await expect(page.getByTestId("message-assistant").getByTestId("inspect-link")).toBeVisible({ timeout: 30_000 });
    // The chat started from a suggestion is named after the first exchange.
    await expect(page.getByTestId("chat-title")).not.toHaveText("New chat", { timeout: 15_000 });
    const title = (await page.getByTestId("chat-title").textContent()) ?? "";
    await expect(page.getByRole("list", { name: "Chats" }).getByRole("link", { name: title })).toBeVisible();

    // Regenerate a complete answer: one answer shown, a new stored message, the old one a version.
    const first = await answerId(page);
    await page.getByRole("button", { name: "Regenerate answer" }).click();
    await expect(async () => expect(await answerId(page)).not.toBe(first)).toPass({ timeout: 30_000 });
    await expect(page.getByTestId("message-assistant")).toHaveCount(1);
    await expect(page.getByTestId("message-assistant").getByTestId("versions")).toContainText("2 / 2");
    // The earlier version keeps its own debug record.
    expect((await page.request.get(`/api/messages/${first}/debug`)).status()).toBe(200);

    // Edit the question and resend: a new version of the question, answered.
    const second = await answerId(page);
    await page.getByTestId("message-user").hover();
    await page.getByRole("button", { name: "Edit message" }).click();
    await page.getByRole("textbox", { name: "Edit your message" }).fill("I'm vegetarian");
    await page.getByRole("button", { name: "Save and resend" }).click();
    await expect(async () => expect(await answerId(page)).not.toBe(second)).toPass({ timeout: 30_000 });
    await expect(page.getByTestId("message-user")).toHaveCount(1);
    await expect(page.getByTestId("message-user")).toContainText("I'm vegetarian");
    await expect(page.getByTestId("message-user").getByTestId("versions")).toContainText("2 / 2");
    await expect(page.getByTestId("message-assistant")).toHaveCount(1);
    await page.reload();
    await expect(page.getByTestId("message-user")).toHaveText(/I'm vegetarian/);
    await expect(page.getByTestId("message-assistant")).toHaveCount(1);
  });

  test("the line under an answer keeps its height from the first token to the settled metadata", async ({ page }) => {
    await registerViaUi(page, "reflow");
    // Sample the newest answer's footer height every frame from the send until the line settles.
    await page.evaluate(() => {
      const heights = new Set<number>();
      (window as unknown as { footerHeights: Set<number> }).footerHeights = heights;
      const sample = () => {
        const footers = document.querySelectorAll('[data-testid="message-footer"]');
        const last = footers[footers.length - 1];
        if (last) heights.add(Math.round(last.getBoundingClientRect().height));
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    const answer = await sendAndWait(page, "Tell me something nice");
    await expect(answer.getByTestId("extraction-status")).toHaveAttribute("data-status", /succeeded|skipped/, {
      timeout: 30_000,
    });
    const heights = await page.evaluate(() => [...(window as unknown as { footerHeights: Set<number> }).footerHeights]);
    // One height from the placeholder while streaming to the settled line: nothing reflowed.
    expect(heights).toHaveLength(1);
  });

  test("memories read as the user's own, with dates in the user's locale; search by meaning ranks by relevance", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await registerViaUi(page, "dates");
    const answer = await sendAndWait(page, "Remind me to renew my passport by 3 March 2027");
    await expect(answer.getByTestId("extraction-status")).toHaveAttribute("data-status", "succeeded", {
      timeout: 60_000,
    });
    await page.goto("/memories");
    const card = page.getByTestId("memory-card").filter({ hasText: "passport" });
    // With its weekday; the year while it is not this year's.
    await expect(card.getByTestId("memory-content")).toHaveText(/^Needs to renew passport by Wed, Mar 3(?:, 2027)?$/);
    await expect(card).not.toContainText("their");
    await expect(card.getByTestId("memory-deadline")).toHaveText(/^Due Wed, Mar 3(?:, 2027)?$/);

    // The browser's time zone was stored on the first visit; settings show it.
    await page.goto("/settings");
    await expect(page.getByLabel("Time zone")).toHaveValue("Pacific/Auckland");

    await page.goto("/memories?q=passport%20renewal&match=semantic");
    // The order is one click away, under Filters: once the page has hydrated (its card buttons are enabled).
    await expect(page.getByTestId("memory-card").first().getByRole("button", { name: "Pin" })).toBeEnabled();
    await page.getByRole("button", { name: /^Filters/ }).click();
    await expect(page.getByRole("combobox", { name: "Sort" })).toHaveValue("relevance");
    await expect(page.getByTestId("memory-card").first()).toContainText("passport");
    await screenshot(page, "memories-search-desktop");
  });

  test("the sidebar stays full height on long pages; the account menu opens settings and signs out here", async ({
    page,
  }) => {
    await registerViaUi(page, "layout");
    const answer = await sendAndWait(page, "My favourite city is Lisbon and I love long walks by the sea");
    await answer.getByTestId("inspect-link").click();
    await expect(page.getByRole("heading", { name: "Inspect this answer" })).toBeVisible();
    await page.mouse.wheel(0, 5000);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const viewport = page.viewportSize();
    const account = page.getByRole("complementary", { name: "Sidebar" }).getByRole("button", { name: /^Account:/ });
    const box = await account.boundingBox();
    expect(box).not.toBeNull();
    // The account card sits at the foot of the viewport, not mid-page.
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeGreaterThan((viewport?.height ?? 0) - 60);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(viewport?.height ?? 0);
    await screenshot(page, "debug-desktop-scrolled");

    await account.click();
    await page.getByRole("menuitem", { name: "Settings" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await account.click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login/);
    // Same host as the page the user was on.
    expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL ?? page.url()).host);
  });
});

test("with no transcriber (the offline models) there is no microphone, and Settings says so", async ({ page }) => {
  await registerViaUi(page, "no-dictation");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Dictate" })).toHaveCount(0);
  await page.goto("/settings");
  await expect(page.getByTestId("dictation-status")).toHaveText(
    "Dictation is not available on this server: there is no microphone in the message box.",
  );
  // What enables it is for whoever runs the server.
  await page.getByText("For administrators").click();
  await expect(page.getByTestId("dictation-admin")).toHaveText(
    "Off: it needs a transcription model, which OPENAI_API_KEY or OPENAI_BASE_URL (a server with /audio/transcriptions) enables.",
  );
});

test.describe("on a phone", () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test("the drawer does not focus the search box; the title and the full selects show", async ({ page }) => {
    test.setTimeout(90_000);
    await registerViaUi(page, "phone-ui");
    await sendAndWait(page, "I'm vegetarian");
    await expect(page.getByTestId("chat-title")).toBeVisible();
    await expect(page.getByTestId("chat-title")).toHaveText("I'm vegetarian", { timeout: 15_000 });

    // Each select is wide enough for its selected label (no "Convers").
    for (const name of ["Model", "Mode"]) {
      const fits = await page.getByRole("combobox", { name, exact: true }).evaluate((element) => {
        const select = element as HTMLSelectElement;
        const style = getComputedStyle(select);
        const context = document.createElement("canvas").getContext("2d");
        if (!context) return false;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const text = select.selectedOptions[0]?.text ?? "";
        const room = select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        return context.measureText(text).width <= room;
      });
      expect(fits, `${name} select shows its whole label`).toBe(true);
    }
    await screenshot(page, "chat-toolbar-mobile");

    await page.getByRole("button", { name: "Open sidebar" }).click();
    const drawer = page.getByRole("dialog", { name: "Sidebar" });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole("searchbox", { name: "Search chats" })).not.toBeFocused();
    await screenshot(page, "drawer-mobile");
    await page.keyboard.press("Escape");
    await expect(messageBox(page)).toBeVisible();
  });
});
