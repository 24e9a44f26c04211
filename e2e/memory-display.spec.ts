/**
 * How the chat and its debug view show memory to a user: the quiet line under an answer and its
 * readable chips, the demo-mailbox notice once per chat, the debug view's candidate table (a
 * sticky memory column that shows it scrolls; a card per candidate on a phone), and pinning that
 * leaves the memories list where it was under the pointer.
 */
import type { Locator, Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { composerReady, expect, sendAndWait, test } from "./fixtures";
import { expectScrollCueClearOfCells } from "./scroll-cue";

const DESKTOP = { width: 1280, height: 820 };
const PHONE = { width: 390, height: 844 };

const MEMORIES = [
  { title: "Allergic to peanuts, tree nuts and sesame", content: "Is allergic to peanuts, tree nuts and sesame" },
  { title: "Sister Maya Chen lives in Lisbon", content: "Has a sister, Maya Chen, who lives in Lisbon" },
  {
    title: "Birthday dinners at the Sichuan restaurant on Grove Street",
    content: "Celebrates birthdays at the Sichuan restaurant on Grove Street",
  },
  { title: "Prefers jasmine green tea in the afternoon", content: "Prefers jasmine green tea in the afternoon" },
];

/** Creates the memories as a script would (docs/api.md) and pins the second; returns their ids. */
async function seedMemories(page: Page): Promise<string[]> {
  const ids: string[] = [];
  for (const memory of MEMORIES) {
    const response = await page.request.post("/api/memories", { data: memory });
    expect(response.status()).toBe(201);
    ids.push(((await response.json()) as { memory: { id: string } }).memory.id);
  }
  const pinned = await page.request.patch(`/api/memories/${ids[1]}`, { data: { pinned: true } });
  expect(pinned.status()).toBe(200);
  return ids;
}

/** No chip's text is cut (no ellipsis, nothing overflowing it), and no two chips overlap. */
async function expectChipsReadable(chips: Locator) {
  const count = await chips.count();
  expect(count).toBeGreaterThanOrEqual(3);
  const boxes: { x: number; y: number; width: number; height: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    const chip = chips.nth(i);
    const cut = await chip.evaluate((element) =>
      [element, ...element.querySelectorAll("*")].some((node) => {
        const style = getComputedStyle(node);
        return style.textOverflow === "ellipsis" || node.scrollWidth > node.clientWidth + 1;
      }),
    );
    expect(cut, `chip ${i} is cut`).toBe(false);
    const box = await chip.boundingBox();
    expect(box).not.toBeNull();
    if (box) boxes.push(box);
  }
  for (const [i, a] of boxes.entries()) {
    for (const [j, b] of boxes.entries()) {
      if (j <= i) continue;
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart, `chips ${i} and ${j} overlap`).toBe(true);
    }
  }
}

test.describe("memory in the chat", () => {
  test.use({ viewport: DESKTOP });

  test("one quiet line under an answer says how many memories were sent; its chips name each in full, with why it was sent", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await registerViaUi(page, "footer");
    await seedMemories(page);
    const model = await page.getByRole("combobox", { name: "Model", exact: true }).inputValue();
    const answer = await sendAndWait(page, "What do you remember about me?");
    const meta = answer.getByTestId("message-meta");
    const used = meta.getByTestId("memories-sent");
    // "What do you remember about me?": the offline model looks them up with list_memories.
    await expect(used).toHaveText(/^Sent \d+ memories: \d+ looked up by the model/);
    await expect(meta).not.toContainText(/\bused\b/i);
    await expect(meta.getByTestId("extraction-status")).toHaveAttribute("data-status", /succeeded|skipped/, {
      timeout: 30_000,
    });
    // One line: no model, latency, tokens or branch names in it; those are the Inspect link's.
    const line = await meta.boundingBox();
    expect(line?.height ?? 99).toBeLessThanOrEqual(24);
    await expect(meta).not.toContainText(model);
    await expect(meta).not.toContainText(/tokens|semantic|conversation|\btool\b/);
    await expect(meta.getByTestId("inspect-link")).toHaveAttribute("title", new RegExp(`^${model} · .+ tokens$`));
    await expect(meta.getByTestId("memory-chips")).toBeHidden();

    await used.click();
    await expect(used).toHaveAttribute("aria-expanded", "true");
    const chips = meta.getByTestId("memory-chip");
    await expect(chips.first()).toBeVisible();
    await expectChipsReadable(chips);
    for (const { title } of MEMORIES) await expect(chips.filter({ hasText: title })).toHaveCount(1);
    await expect(chips.filter({ hasText: "Sister Maya Chen lives in Lisbon" })).toContainText("pinned");
    for (const chip of await chips.all()) {
      await expect(chip).toContainText(/ · (matched your message|from this chat|pinned|looked up)/);
    }
    await expect(meta.getByTestId("memory-group-looked_up")).toContainText("Looked up by the model");
    await answer.screenshot({ path: "e2e/screenshots/answer-footer-desktop.png" });

    await page.setViewportSize(PHONE);
    await expectChipsReadable(chips);
    await answer.screenshot({ path: "e2e/screenshots/answer-footer-phone.png" });

    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize(DESKTOP);
    await expect(page.locator("html")).toHaveClass(/dark/);
    await answer.screenshot({ path: "e2e/screenshots/answer-footer-dark.png" });
  });

  test("an answer to a message no memory matches says so: its memories were only at hand", async ({ page }) => {
    test.setTimeout(120_000);
    await registerViaUi(page, "at-hand");
    await seedMemories(page);
    const answer = await sendAndWait(page, "Explain a JavaScript closure");
    const sent = answer.getByTestId("memories-sent");
    await expect(sent).toHaveText(/^Sent 1 memory: none matched this message, 1 at hand$/);
    await sent.click();
    await expect(answer.getByTestId("memory-group-matched")).toHaveCount(0);
    await expect(answer.getByTestId("memory-group-at_hand")).toContainText("At hand: pinned or from this chat");
    await expect(answer.getByTestId("memory-group-at_hand")).toContainText("Sister Maya Chen lives in Lisbon · pinned");
    await answer.screenshot({ path: "e2e/screenshots/answer-footer-at-hand.png" });
  });

  test("the demo-mailbox notice shows once per conversation", async ({ page }) => {
    test.setTimeout(120_000);
    await registerViaUi(page, "mailbox-notice");
    await page.getByRole("combobox", { name: "Mode", exact: true }).selectOption({ label: "Gmail agent" });
    const first = await sendAndWait(page, "Find emails from Maya");
    await expect(first.getByTestId("agent-step").first()).toBeVisible();
    await expect(first.getByTestId("agent-mailbox-notice")).toContainText("demo mailbox");
    const second = await sendAndWait(page, "List my labels");
    await expect(second.getByTestId("agent-step").first()).toBeVisible();
    await expect(page.getByTestId("agent-mailbox-notice")).toHaveCount(1);
    await page.reload();
    await composerReady(page);
    await expect(page.getByTestId("agent-step").first()).toBeVisible();
    await expect(page.getByTestId("agent-mailbox-notice")).toHaveCount(1);
  });
});

test.describe("the debug view's candidate table", () => {
  test.use({ viewport: DESKTOP });

  test("keeps the memory column in place while the numbers scroll, shows that it scrolls, and is a card per candidate on a phone", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await registerViaUi(page, "debug-table");
    await seedMemories(page);
    const answer = await sendAndWait(page, "What should I avoid eating?");
    await answer.getByTestId("inspect-link").click();
    await expect(page.getByRole("heading", { name: "Inspect this answer" })).toBeVisible();

    const table = page.getByTestId("candidate-table");
    const edges = page.getByTestId("scroll-edges").filter({ has: table });
    const scroller = edges.getByTestId("scroll-area");
    const firstMemory = table.locator("tbody tr").first().locator("td").first();
    // At 1280 px the numbers do not fit: the edge fades, and the memory column starts at the left.
    await expect(edges).toHaveAttribute("data-at-end", "false");
    await expect(edges.getByTestId("scroll-fade")).toBeVisible();
    await expectScrollCueClearOfCells(edges);
    const before = await firstMemory.boundingBox();
    const recency = table.locator("th", { hasText: "Recency" });
    const scrollerBox = await scroller.boundingBox();
    expect((await recency.boundingBox())?.x ?? 0).toBeGreaterThan((scrollerBox?.x ?? 0) + (scrollerBox?.width ?? 0));
    await table.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/debug-table-desktop.png" });

    await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect(edges).toHaveAttribute("data-at-end", "true");
    await expect(edges).toHaveAttribute("data-at-start", "false");
    await expect(edges.getByTestId("scroll-fade")).toHaveCount(0);
    // The memory column stayed where it was; the last columns came into view.
    const after = await firstMemory.boundingBox();
    expect(after?.x).toBeCloseTo(before?.x ?? -1, 0);
    await expect(recency).toBeInViewport();
    await page.screenshot({ path: "e2e/screenshots/debug-table-desktop-scrolled.png" });

    // A phone: a card per candidate, every value under its label, nothing to scroll sideways.
    await page.setViewportSize(PHONE);
    await page.reload();
    // Streamed server HTML arrives in a hidden container before React reveals it in place: wait for
    // the table to be visible, not merely present, before measuring (a hidden cell has no box).
    await expect(table).toBeVisible();
    await expect(table.locator("thead")).toBeHidden();
    const rows = table.locator("tbody tr");
    await expect(rows.first()).toBeVisible();
    const fits = await scroller.evaluate((element) => element.scrollWidth <= element.clientWidth);
    expect(fits).toBe(true);
    for (const row of await rows.all()) {
      expect(await row.evaluate((element) => getComputedStyle(element).display)).toBe("grid");
      for (const column of ["fate", "score", "importance", "recency"]) {
        const cell = row.locator(`td[data-column="${column}"]`);
        await expect(cell, `${column} shows`).toBeVisible();
        const box = await cell.boundingBox();
        expect(box, `${column} shows`).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
      }
    }
    await rows.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/debug-table-phone.png" });
  });
});

test.describe("pinning on the memories page", () => {
  test.use({ viewport: DESKTOP });

  test("leaves the card under the pointer and the focus on it; the list re-sorts when reloaded", async ({ page }) => {
    await registerViaUi(page, "pin-stays");
    for (const { content } of MEMORIES.slice(0, 3)) {
      expect((await page.request.post("/api/memories", { data: { content } })).status()).toBe(201);
    }
    await page.goto("/memories");
    const cards = page.getByTestId("memory-card");
    await expect(cards).toHaveCount(3);
    const order = async () => cards.evaluateAll((elements) => elements.map((element) => element.id));
    const listed = await order();
    const bottom = listed[2];
    if (!bottom) throw new Error("three cards expected");
    // The bottom card: pinned, it belongs at the top.
    const card = page.locator(`[id="${bottom}"]`);
    const pin = card.getByRole("button", { name: "Pin", exact: true });
    // The pointer's own click (below) does not wait for the button as Playwright's click does.
    await expect(pin).toBeVisible();
    await expect(pin).toBeEnabled();
    await pin.scrollIntoViewIfNeeded();
    const box = await pin.boundingBox();
    if (!box) throw new Error("no Pin button");
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.move(point.x, point.y);
    await page.mouse.down();
    await page.mouse.up();

    await expect(card.getByRole("button", { name: "Unpin" })).toBeVisible();
    await expect(card.getByRole("button", { name: "Unpin" })).toBeFocused();
    await expect(card.getByLabel("Pinned")).toBeVisible();
    expect(await order()).toEqual(listed);
    const under = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest("article")?.id ?? null,
      point,
    );
    expect(under).toBe(bottom);
    const stored = await page.request.get(`/api/memories/${bottom.replace(/^memory-/, "")}`);
    expect(((await stored.json()) as { memory: { pinned: boolean } }).memory.pinned).toBe(true);

    // Reloaded, the list shows pinned memories first.
    await page.reload();
    await expect(cards.first()).toHaveAttribute("id", bottom);
    await expect(cards.first().getByRole("button", { name: "Unpin" })).toBeVisible();
  });
});
