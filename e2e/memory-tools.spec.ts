import type { Locator, Page } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";
import { composerReady, expect, screenshot, sendAndWait, test } from "./fixtures";

/** Sends `text` and waits until the pair's extraction has settled as saved. */
async function tell(page: Page, text: string) {
  const answer = await sendAndWait(page, text);
  await expect(answer.getByTestId("extraction-status")).toHaveAttribute("data-status", "succeeded", {
    timeout: 60_000,
  });
  return answer;
}

/** A new conversation (loaded afresh: this spec is about memory across chats, not the sidebar). */
async function newChat(page: Page) {
  await page.goto("/");
  await composerReady(page);
  await expect(page.getByTestId("message-assistant")).toHaveCount(0);
}

async function openDebug(page: Page, answer: Locator) {
  await answer.getByTestId("inspect-link").click();
  await expect(page.getByRole("heading", { name: "Inspect this answer" })).toBeVisible();
}

test("memory that answers 'what do you remember about me?', pins, and explains a miss", async ({ page }) => {
  test.setTimeout(240_000);
  await registerViaUi(page, "memtools");

  // Four memories, from three messages.
  await tell(page, "I prefer green tea and my sister's name is Maya");
  await tell(page, "I'm vegetarian");
  await tell(page, "I work at Northwind as a backend engineer");

  // 1. An overview question: the model lists the memories through a tool call, shown compactly.
  await newChat(page);
  const overview = await sendAndWait(page, "What do you remember about me?");
  // A new chat: no conversation branch, the memories come from the tool.
  await expect(page.getByRole("list", { name: "Chats" }).getByRole("link")).toHaveCount(2);
  const step = overview.getByTestId("tool-step");
  await expect(step).toHaveText("Listed memories: 4 found");
  for (const text of ["green tea", "Maya", "vegetarian", "Northwind"]) await expect(overview).toContainText(text);
  await expect(overview).not.toContainText("I don't have any memories");
  await expect(overview.getByTestId("message-meta")).toContainText("4 memories");
  await screenshot(page, "memory-tools-chat");

  // Its debug view: two model calls in order, the tool call between them with what it returned and why.
  await openDebug(page, overview);
  await expect(page.getByTestId("model-call")).toHaveCount(2);
  const toolCall = page.getByTestId("tool-call");
  await expect(toolCall).toHaveCount(1);
  await expect(toolCall).toContainText("list_memories({})");
  await expect(toolCall.getByTestId("tool-call-returned")).toHaveText("4 returned");
  await expect(toolCall.getByTestId("tool-call-rule")).toContainText("the most important first");
  await expect(toolCall.getByTestId("tool-call-rule")).toContainText("(once per answer)");
  await expect(toolCall.locator('tr[data-fate="returned"]')).toHaveCount(4);
  // The second call received the tool's result.
  await expect(page.getByTestId("model-call").nth(1)).toContainText("← list_memories");
  await expect(page.getByTestId("retrieval-strategy")).toContainText("hybrid");
  await screenshot(page, "memory-tools-debug");

  // 2. A miss, explained: the dinner question's debug view lists the memory about work — unrelated
  // to dinner — as below threshold, with its similarity. (The word-vector embedder finds the others
  // related enough: the vegetarian memory rightly, Maya and green tea as weak matches.)
  await newChat(page);
  const dinner = await sendAndWait(page, "What should I cook for dinner tonight?");
  await openDebug(page, dinner);
  const work = page.getByTestId("candidate-table").locator('tr[data-fate="below_threshold"]', { hasText: "Northwind" });
  await expect(work).toHaveCount(1);
  await expect(work).toContainText("below threshold");
  await expect(work.locator('td[data-column="similarity"]')).toHaveText(/^-?\d\.\d{3}$/);
  // The vegetarian memory is listed with its fate, whichever the embedder gives it.
  await expect(page.getByTestId("candidate-table").locator("tr", { hasText: "vegetarian" }).first()).toHaveAttribute(
    "data-fate",
    /^(included|below_threshold)$/,
  );
  await screenshot(page, "memory-tools-near-miss");

  // 3. The memory card's "source message" link lands on the debug view's extraction section.
  await page.goto("/memories");
  const mayaCard = page
    .getByTestId("memory-card")
    .filter({ has: page.getByTestId("memory-content").filter({ hasText: "Maya" }) });
  await mayaCard.getByRole("link", { name: "source message" }).click();
  await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}\/debug#extraction$/);
  await expect(page.locator("#extraction")).toBeInViewport();
  await expect(page.locator("#extraction")).toContainText("What Lifeline learned");

  // 4. Pin it: the next unrelated question's prompt carries it, through the pinned branch.
  await page.goto("/memories");
  await mayaCard.getByRole("button", { name: "Pin" }).click();
  await expect(mayaCard.getByRole("button", { name: "Unpin" })).toBeVisible();
  await newChat(page);
  const unrelated = await sendAndWait(page, "How tall is Mount Everest?");
  await openDebug(page, unrelated);
  await expect(page.getByTestId("memory-line").filter({ hasText: "Maya" })).toHaveCount(1);
  const pinnedRow = page
    .getByTestId("candidate-table")
    .locator('tr[data-fate="included"]', { hasText: "Maya" })
    .filter({ hasText: "pinned" });
  await expect(pinnedRow).toHaveCount(1);
});
