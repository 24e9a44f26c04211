import type { Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { expect, messageBox, screenshot, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const EXCHANGES = 30;

// Writing 30 turns takes a good part of the default minute on a loaded machine.
test.describe.configure({ timeout: 120_000 });

/** A 60-message chat, written as a script would (docs/api.md) with the page's session. */
async function seedLongChat(page: Page, first?: string, exchanges = EXCHANGES): Promise<string> {
  let conversationId: string | undefined;
  if (first) conversationId = await chatViaApi(page, undefined, first);
  for (let i = first ? 2 : 1; i <= exchanges; i += 1) {
    const response = await page.request.post("/api/chat", {
      data: {
        ...(conversationId ? { conversationId } : {}),
        message: {
          text: `Note ${i}: the long-chat layout check.\nA second line, so that every message is two lines tall.`,
        },
      },
    });
    expect(response.status()).toBe(200);
    await response.body(); // the whole stream: the answer is stored
    conversationId ??= response.headers()["x-conversation-id"];
  }
  expect(conversationId).toBeTruthy();
  return conversationId as string;
}

async function chatViaApi(page: Page, conversationId: string | undefined, text: string): Promise<string> {
  const response = await page.request.post("/api/chat", {
    data: { ...(conversationId ? { conversationId } : {}), message: { text } },
  });
  expect(response.status()).toBe(200);
  await response.body();
  return response.headers()["x-conversation-id"] ?? "";
}

/** The document is the viewport: nothing but the message list and the sidebar can scroll. */
async function expectDocumentFitsViewport(page: Page) {
  const size = await page.evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    innerHeight: window.innerHeight,
    scrollY: window.scrollY,
  }));
  expect(size.scrollHeight).toBe(size.innerHeight);
  expect(size.scrollY).toBe(0);
}

async function openLongChat(page: Page, label: string) {
  await registerViaUi(page, label);
  const id = await seedLongChat(page);
  await page.goto(`/chat/${id}`);
  await expect(page.getByTestId("message-assistant")).toHaveCount(EXCHANGES);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
}

/** Wheel notches over `x, y`; the chat's title must stay where it was. */
async function wheelKeepsToolbar(page: Page, x: number, y: number) {
  const title = page.getByTestId("chat-title");
  const before = await title.boundingBox();
  await page.mouse.move(x, y);
  for (let notch = 0; notch < 3; notch += 1) await page.mouse.wheel(0, 400);
  for (let notch = 0; notch < 3; notch += 1) await page.mouse.wheel(0, -400);
  for (let notch = 0; notch < 3; notch += 1) await page.mouse.wheel(0, 400);
  await expect(title).toBeInViewport();
  expect(await title.boundingBox()).toEqual(before);
  await expectDocumentFitsViewport(page);
}

test.describe("a long chat on a desktop", () => {
  test("only the message list and the sidebar scroll; the toolbar stays", async ({ page }) => {
    await openLongChat(page, "long-desktop");
    await expectDocumentFitsViewport(page);
    const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
    // Over the messages, then over the sidebar.
    await wheelKeepsToolbar(page, viewport.width / 2 + 130, viewport.height / 2);
    await wheelKeepsToolbar(page, 120, viewport.height / 2);
    // The list itself scrolled: the first message can be reached, the composer is still there.
    await page.getByTestId("message-user").first().scrollIntoViewIfNeeded();
    await expect(page.getByTestId("message-user").first()).toBeInViewport();
    await expect(messageBox(page)).toBeInViewport();
    await expectDocumentFitsViewport(page);
    await screenshot(page, "long-chat-desktop");
  });

  test.describe("in dark mode", () => {
    test.use({ colorScheme: "dark" });
    test("the long chat holds its layout", async ({ page }) => {
      await openLongChat(page, "long-dark");
      const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
      await wheelKeepsToolbar(page, viewport.width / 2 + 130, viewport.height / 2);
      await screenshot(page, "long-chat-dark");
    });
  });
});

test.describe("a long chat on a phone", () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test("the page never scrolls away; the top bar and the toolbar stay", async ({ page }) => {
    await openLongChat(page, "long-phone");
    await expectDocumentFitsViewport(page);
    await wheelKeepsToolbar(page, PHONE.width / 2, PHONE.height / 2);
    await expect(page.getByRole("button", { name: "Open sidebar" })).toBeInViewport();
    await screenshot(page, "long-chat-phone");
  });
});

test.describe("the message box is ready to type into", () => {
  test("after registering, after New chat and after choosing a chat; chats are grouped by date", async ({ page }) => {
    await registerViaUi(page, "focus");
    await expect(messageBox(page)).toBeFocused();
    await messageBox(page).fill("Remember that I like tea");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("message-assistant").getByTestId("inspect-link")).toBeVisible({ timeout: 30_000 });
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    // The chat list groups chats by date, as the peers do (lib/ui/date-groups.test.ts has every group).
    await expect(sidebar.getByRole("heading", { name: "Today" })).toBeVisible();
    await expect(sidebar.getByRole("list", { name: "Today" }).getByRole("link")).toHaveCount(1);
    await sidebar.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New chat" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(messageBox(page)).toBeFocused();
    await sidebar.getByRole("list", { name: "Chats" }).getByRole("link").first().click();
    await expect(page).toHaveURL(/\/chat\//);
    await expect(messageBox(page)).toBeFocused();
  });
});

test.describe("a memory's source link", () => {
  test("lands on the message it came from, highlighted, on a click and on a reload", async ({ page }) => {
    await registerViaUi(page, "source-link");
    // Enough turns that the source message is far above the newest one.
    await seedLongChat(page, "I am vegetarian", 12);
    await expect
      .poll(async () => JSON.stringify(await (await page.request.get("/api/memories?q=vegetarian")).json()), {
        timeout: 60_000,
      })
      .toContain("Is vegetarian");
    await page.goto("/memories");
    const card = page.getByTestId("memory-card").filter({ hasText: "Is vegetarian" });
    const link = card.getByTestId("memory-source");
    await expect(link).toContainText("In chat");
    await expect(card.getByTestId("memory-source-excerpt")).toHaveText("I am vegetarian");
    await link.click();
    await expect(page).toHaveURL(/\/chat\/.+#message-/);
    const source = page.getByTestId("message-user").first();
    await expect(source).toContainText("I am vegetarian");
    await expect(source).toBeInViewport();
    await expect(source).toHaveAttribute("data-linked", "true");
    await screenshot(page, "memory-source-landing");
    await page.reload();
    await expect(page.getByTestId("message-user").first()).toBeInViewport();
    // The newest message is far below: the list did not jump to the end.
    await expect(page.getByTestId("message-user").last()).not.toBeInViewport();
  });
});
