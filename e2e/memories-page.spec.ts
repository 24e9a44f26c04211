/**
 * The memories page puts the memories first: a compact list (several memories on one screen, on a
 * laptop and on a phone), pinned ones at the top with the order said above the list, and the
 * filters and the preview one click away. The preview's candidate table shows that it scrolls and
 * its last column can be reached.
 */
import { devices, type Locator, type Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { expectScrollCueClearOfCells } from "./scroll-cue";

const DESKTOP = { width: 1280, height: 820 };
const { viewport: PHONE, deviceScaleFactor, isMobile, hasTouch, userAgent } = devices["iPhone 13"];

/** What a person tells Lifeline in a first week: titles, contents and tags of realistic length. */
const MEMORIES = [
  { title: "Allergic to peanuts and sesame", content: "Is allergic to peanuts and sesame", tags: ["health"] },
  { title: "Sister Maya Chen lives in Lisbon", content: "Has a sister, Maya Chen, who lives in Lisbon" },
  { title: "Vegetarian since 2019", content: "Has been vegetarian since 2019", tags: ["food"] },
  { title: "Runs on Saturday mornings", content: "Goes running along the river every Saturday morning" },
  { title: "Prefers jasmine green tea", content: "Prefers jasmine green tea in the afternoon", tags: ["food"] },
  { title: "Works as a product designer", content: "Works as a product designer at a small studio in Porto" },
  { title: "Learning Portuguese", content: "Is learning Portuguese, two lessons a week", tags: ["goals"] },
  { title: "Dog named Biscuit", content: "Has a beagle named Biscuit who is afraid of thunder" },
];

async function seed(page: Page): Promise<string[]> {
  const ids: string[] = [];
  for (const memory of MEMORIES) {
    const response = await page.request.post("/api/memories", { data: memory });
    expect(response.status()).toBe(201);
    ids.push(((await response.json()) as { memory: { id: string } }).memory.id);
  }
  return ids;
}

/**
 * How many memories are wholly on screen, as the page first shows them. Polled: the streamed list is in the DOM,
 * hidden, before it replaces the loading skeleton (CI met 0 on screen with all 8 attached).
 */
async function memoriesOnScreen(page: Page): Promise<number> {
  const height = page.viewportSize()?.height ?? 0;
  const boxes = await page
    .getByTestId("memory-card")
    .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().toJSON() as DOMRect));
  return boxes.filter((box) => box.height > 0 && box.top >= 0 && box.bottom <= height).length;
}

/** The candidate table inside `scope`: its last column is on screen, or the table says it scrolls and scrolls to it. */
async function expectLastColumnReachable(scope: Locator) {
  const table = scope.getByTestId("candidate-table");
  const edges = scope.getByTestId("scroll-edges").filter({ has: scope.page().getByTestId("candidate-table") });
  const scroller = edges.getByTestId("scroll-area");
  const last = table.locator("thead th").last();
  await expect(last).toBeAttached();
  const fits = await scroller.evaluate((element) => element.scrollWidth <= element.clientWidth + 1);
  if (!fits) {
    // Cut off: the edge says more is there, and scrolling brings the last column into view.
    await expect(edges.getByTestId("scroll-fade")).toBeVisible();
    const more = edges.getByRole("button", { name: "More columns" });
    await expect(more).toBeInViewport();
    await expectScrollCueClearOfCells(edges);
    // The cue scrolls towards the cut-off columns; at the end it goes.
    await more.click();
    await expect.poll(() => scroller.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect(edges).toHaveAttribute("data-at-end", "true");
    await expect(more).toHaveCount(0);
  }
  await expect(last).toBeInViewport({ ratio: 1 });
}

test.describe("the memories page on a laptop", () => {
  test.use({ viewport: DESKTOP });

  test("shows at least six memories, pinned first, with the filters and the preview one click away", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await registerViaUi(page, "memories-compact");
    const ids = await seed(page);
    // The oldest memory, pinned: it goes to the top.
    const pinned = ids[0] ?? "";
    expect((await page.request.patch(`/api/memories/${pinned}`, { data: { pinned: true } })).status()).toBe(200);

    await page.goto("/memories");
    const cards = page.getByTestId("memory-card");
    await expect(cards).toHaveCount(MEMORIES.length);
    await expect.poll(() => memoriesOnScreen(page)).toBeGreaterThanOrEqual(6);
    await expect(cards.first()).toHaveAttribute("id", `memory-${pinned}`);
    await expect(cards.first().getByLabel("Pinned")).toBeVisible();
    await expect(page.getByTestId("memory-count")).toHaveText("8 memories, pinned first, then most recent.");
    await page.screenshot({ path: "e2e/screenshots/memories-compact-desktop.png" });

    // The filters: one click.
    const type = page.getByRole("combobox", { name: "Type" });
    await expect(type).toBeHidden();
    const filters = page.getByRole("button", { name: "Filters" });
    await expect(filters).toHaveAttribute("aria-expanded", "false");
    await filters.click();
    await expect(filters).toHaveAttribute("aria-expanded", "true");
    await expect(type).toBeVisible();
    await page.getByRole("combobox", { name: "Sort" }).selectOption("importance");
    await expect(page).toHaveURL(/sort=importance/);
    await expect(page.getByTestId("memory-count")).toHaveText("8 memories match, most important first, pinned or not.");
    // A filter in force keeps its panel open, and the button counts it.
    await expect(page.getByRole("button", { name: "Filters (1)" })).toHaveAttribute("aria-expanded", "true");
    await page.getByRole("link", { name: "Clear" }).click();
    await expect(page).toHaveURL(/\/memories$/);

    // The preview: one click, and its candidate table's last column can be reached.
    const previewInput = page.getByRole("textbox", { name: "A message to try" });
    await expect(previewInput).toBeHidden();
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(previewInput).toBeVisible();
    await previewInput.fill("What should I avoid eating?");
    await previewInput.press("Enter");
    const table = page.getByTestId("preview-result").getByTestId("candidate-table");
    await expect(table).toBeVisible();
    await expect(table).toContainText("Allergic to peanuts and sesame");
    await table.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/memories-preview-desktop.png" });
    await expectLastColumnReachable(page.getByTestId("preview-result"));
    await page.screenshot({ path: "e2e/screenshots/memories-preview-desktop-scrolled.png" });
  });
});

test.describe("the memories page on a phone", () => {
  test.use({ viewport: PHONE, deviceScaleFactor, isMobile, hasTouch, userAgent });

  test("shows at least three memories on the first screen", async ({ page }) => {
    await registerViaUi(page, "memories-phone");
    await seed(page);
    await page.goto("/memories");
    await expect(page.getByTestId("memory-card")).toHaveCount(MEMORIES.length);
    await expect.poll(() => memoriesOnScreen(page)).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: "e2e/screenshots/memories-compact-phone.png" });
    // Every action is there, by name, though the phone shows only their icons.
    const first = page.getByTestId("memory-card").first();
    for (const name of [/^Edit memory/, /^Pin$/, /^History$/, /^Delete memory/]) {
      await expect(first.getByRole("button", { name })).toBeVisible();
    }
  });
});
