import { registerViaUi } from "./auth-helpers";
import { expect, sendAndWait, test } from "./fixtures";

test("a new chat with memory off neither uses nor saves memories", async ({ page }) => {
  await registerViaUi(page, "private");
  const memory = page.getByRole("switch", { name: "Memory" });
  await memory.click();
  await expect(memory).not.toBeChecked();
  await expect(page.getByText("Memory is off for this chat: nothing is recalled or saved.")).toBeVisible();

  const answer = await sendAndWait(page, "My passport number is X1234567");
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(answer.getByTestId("message-meta")).toContainText("Memory off");
  await expect(answer.getByTestId("extraction-status")).toHaveAttribute("data-status", "skipped");

  // The setting belongs to the chat: it is still off after a reload.
  await page.reload();
  await expect(page.getByRole("switch", { name: "Memory" })).not.toBeChecked();
});

test("the sidebar renames, finds, archives and deletes chats", async ({ page }) => {
  await registerViaUi(page, "sidebar");
  await sendAndWait(page, "Plan a picnic by the lake");
  const chats = page.getByRole("list", { name: "Chats" });
  await expect(chats.getByRole("link")).toHaveCount(1);

  // Rename from the row's menu.
  await chats.getByRole("button", { name: /^Actions for/ }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const title = page.getByRole("textbox", { name: "Chat title" });
  await title.fill("Picnic plans");
  await title.press("Enter");
  await expect(chats.getByRole("link", { name: "Picnic plans" })).toBeVisible();
  await expect(page.getByTestId("chat-title")).toHaveText("Picnic plans");

  // Search by title.
  const search = page.getByRole("searchbox", { name: "Search chats" });
  await search.fill("zzz");
  await expect(page.getByText("No chats match “zzz”.")).toBeVisible();
  await search.fill("picnic");
  await expect(chats.getByRole("link", { name: "Picnic plans" })).toBeVisible();
  // Search also finds words said in the chat, and shows where.
  await search.fill("lake");
  await expect(chats.getByRole("link", { name: /Picnic plans/ })).toBeVisible();
  await expect(chats.getByTestId("search-snippet")).toContainText("Plan a picnic by the lake");
  await expect(chats.getByTestId("search-snippet").locator("mark")).toHaveText("lake");
  await search.fill("");

  // Archive: it leaves the list and shows under Archived.
  await chats.getByRole("button", { name: "Actions for Picnic plans" }).click();
  await page.getByRole("menuitem", { name: "Archive" }).click();
  await expect(chats).toHaveCount(0);
  await page.getByRole("button", { name: "Archived" }).click();
  const archived = page.getByRole("list", { name: "Archived chats" });
  await expect(archived.getByRole("link", { name: "Picnic plans" })).toBeVisible();

  // Delete it (confirmed in a dialog); the open chat goes back to a new one.
  await archived.getByRole("button", { name: "Actions for Picnic plans" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete chat" }).click();
  await expect(page.getByText("No archived chats.")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});
