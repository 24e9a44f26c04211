import { registerViaUi } from "./auth-helpers";
import { expect, screenshot, sendAndWait, test } from "./fixtures";

const UUID = "[0-9a-f-]{36}";

test("a new user's memory: said, saved, recalled with its reason, edited, deleted — and then no longer recalled", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await registerViaUi(page, "journey");

  // 1. A first chat. The answer streams (an event stream), and the URL becomes the chat's.
  const streamed = page.waitForResponse(
    (res) => res.url().endsWith("/api/chat") && (res.headers()["content-type"] ?? "").includes("text/event-stream"),
  );
  const answer = await sendAndWait(page, "I prefer green tea and my sister's name is Maya");
  await streamed;
  await expect(page).toHaveURL(new RegExp(`/chat/${UUID}$`));
  const firstChatId = page.url().split("/chat/")[1] ?? "";
  await expect(answer).toContainText("green tea");

  // 2. Extraction runs after the answer: the status turns to saved.
  const extraction = answer.getByTestId("extraction-status");
  await expect(extraction).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  await expect(extraction).toContainText(/Saved \d+ memor/);
  await screenshot(page, "chat-desktop-light");

  // 3. The memory is on /memories, with a link to the chat it came from.
  await extraction.getByRole("link").click();
  await expect(page).toHaveURL(/\/memories$/);
  // By its content: the Maya card's source line quotes the same message ("I prefer green tea and…").
  const teaCard = page
    .getByTestId("memory-card")
    .filter({ has: page.getByTestId("memory-content").filter({ hasText: "green tea" }) });
  await expect(teaCard).toHaveCount(1);
  await expect(teaCard.getByTestId("memory-source")).toHaveAttribute(
    "href",
    new RegExp(`^/chat/${firstChatId}\\?message=[^#]+#message-`),
  );
  await expect(
    page.getByTestId("memory-card").filter({ has: page.getByTestId("memory-content").filter({ hasText: "Maya" }) }),
  ).toHaveCount(1);
  await screenshot(page, "memories-desktop-light");

  // 4. A new conversation recalls it, and its debug view shows the memory as included.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New chat" }).click();
  await expect(page).toHaveURL(/\/$/);
  const recall = await sendAndWait(page, "what tea do I like?");
  await expect(recall).toContainText("green tea");
  const secondChatId = page.url().split("/chat/")[1] ?? "";
  expect(secondChatId).not.toBe(firstChatId);
  await screenshot(page, "recall-desktop-light");
  await recall.getByTestId("inspect-link").click();
  await expect(page).toHaveURL(new RegExp(`/messages/${UUID}/debug$`));
  await expect(page.getByRole("heading", { name: "Inspect this answer" })).toBeVisible();
  await expect(page.getByTestId("memory-line").filter({ hasText: "green tea" })).toHaveCount(1);
  const included = page.getByTestId("candidate-table").locator('tr[data-fate="included"]');
  await expect(included.filter({ hasText: "green tea" })).toHaveCount(1);
  await expect(included.filter({ hasText: "green tea" })).toContainText("semantic");
  await expect(page.getByTestId("retrieval-status")).toHaveText("ran");
  await screenshot(page, "debug-desktop-light");

  // 5. Edit it on /memories (re-embedded), then delete it.
  await page.goto("/memories");
  await teaCard.getByRole("button", { name: /^Edit memory/ }).click();
  const dialog = page.getByRole("dialog", { name: "Edit memory" });
  await dialog.getByLabel("Memory", { exact: true }).fill("Prefers jasmine green tea");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("memory-card").filter({ hasText: "Prefers jasmine green tea" })).toHaveCount(1);
  const edited = page.getByTestId("memory-card").filter({ hasText: "jasmine" });
  await expect(edited).toContainText("edited");

  await edited.getByRole("button", { name: /^Delete memory/ }).click();
  await expect(page.getByText("Memory deleted")).toBeVisible();
  await expect(page.getByTestId("memory-card").filter({ hasText: "jasmine" })).toHaveCount(0);

  // 6. The next turn no longer includes it.
  await page.goto(`/chat/${secondChatId}`);
  const after = await sendAndWait(page, "what tea do I like?");
  await after.getByTestId("inspect-link").click();
  await expect(page.getByRole("heading", { name: "Inspect this answer" })).toBeVisible();
  await expect(page.getByTestId("memory-line").filter({ hasText: "tea" })).toHaveCount(0);
  await expect(page.getByTestId("candidate-table").or(page.getByText("no memory qualified"))).toBeVisible();
  await expect(page.locator("tr", { hasText: "jasmine" })).toHaveCount(0);
});
