import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { zipSync } from "fflate";
import { importConfig } from "@/core/config";
import { registerViaUi } from "./auth-helpers";
import { expect, screenshot, sendAndWait, setVisibility, test } from "./fixtures";

/** A ChatGPT export zip made from the parser's fixture: regenerated branches, images, tool and hidden messages. */
function chatGptExportZip(): string {
  const conversations = readFileSync(path.join(process.cwd(), "lib/import/fixtures/chatgpt-conversations.json"));
  const file = path.join(os.tmpdir(), `chatgpt-export-${Date.now()}.zip`);
  const zip = zipSync({
    "conversations.json": new Uint8Array(conversations),
    "user.json": new TextEncoder().encode("{}"),
  });
  writeFileSync(file, zip);
  return file;
}

/** The file input is disabled until Settings hydrates: a file set before then would reach no handler. */
async function chooseImportFile(page: Page, file: Parameters<Locator["setInputFiles"]>[0]) {
  const input = page.getByTestId("import-file");
  await expect(input).toBeEnabled();
  await input.setInputFiles(file);
}

test("a file that is not an export is refused with a reason, and nothing is sent", async ({ page }) => {
  await registerViaUi(page, "import-bad");
  await page.goto("/settings");
  await chooseImportFile(page, {
    name: "notes.json",
    mimeType: "application/json",
    buffer: Buffer.from('{"hello":"world"}'),
  });
  await expect(
    page.getByRole("alert").filter({ hasText: "The file is not a ChatGPT, Claude or Lifeline export" }),
  ).toBeVisible();
  await expect(page.getByTestId("import-preview")).toHaveCount(0);
  expect(await (await page.request.get("/api/imports")).json()).toEqual({ imports: [] });
});

test("a pasted memory list is reviewed, edited and saved, each memory saying it was pasted", async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "import-pasted");
  await page.goto("/settings");
  await page
    .getByLabel("A memory list from another assistant")
    .fill(
      "Here is what I remember about you:\n- You live in Porto.\n- You have a cat named Miso.\n- You dislike jazz.",
    );
  await page.getByRole("button", { name: "Review" }).click();
  const review = page.getByTestId("pasted-review");
  await expect(review.getByRole("textbox", { name: "Memory" })).toHaveCount(3);
  await review.getByRole("checkbox", { name: "Keep “You dislike jazz.”" }).uncheck();
  await review.getByRole("textbox", { name: "Memory" }).nth(1).fill("You have a cat named Miso, a tabby.");
  await screenshot(page, "import-pasted-review");
  await review.getByRole("button", { name: "Save 2 memories" }).click();
  await expect(page.getByTestId("pasted-saved")).toContainText("Saved 2 memories.");

  await page.goto("/memories");
  const cards = page.getByTestId("memory-card");
  await expect(cards).toHaveCount(2);
  await expect(
    cards.filter({ hasText: "You have a cat named Miso, a tabby." }).getByTestId("memory-source"),
  ).toContainText("You pasted this on");
  await expect(cards.filter({ hasText: "jazz" })).toHaveCount(0);
});

test("a ChatGPT export imported in Settings is recalled in a new chat, and its source is the imported message", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await registerViaUi(page, "import");
  await page.goto("/settings");
  await chooseImportFile(page, chatGptExportZip());

  const preview = page.getByTestId("import-preview");
  await expect(preview).toContainText("ChatGPT export: 2 conversations, 6 messages, from 2023-11-14 to 2024-03-09.");
  await expect(page.getByTestId("import-skipped")).toContainText("on a branch not kept (edited or regenerated): 3");
  await expect(page.getByTestId("import-choice")).toContainText("2 conversations chosen: 3 exchanges to read");
  await screenshot(page, "import-preview");

  await preview.getByRole("button", { name: "Import 2 conversations" }).click();
  const progress = page.getByTestId("import-progress");
  await expect(progress).toHaveAttribute("data-status", "done", { timeout: 90_000 });
  await expect(page.getByTestId("import-counts")).toContainText(
    /^3 of 3 exchanges read, from 2 conversations · [1-9]\d* memor(?:y|ies) added or updated · 0 failed$/,
  );
  await screenshot(page, "import-done");

  // The progress is the server's: a reload shows it again.
  await page.reload();
  await expect(page.getByTestId("import-progress")).toHaveAttribute("data-status", "done");

  await page.goto("/");
  const recall = await sendAndWait(page, "Which city do I live in?");
  await expect(recall.getByTestId("message-meta")).toContainText(/Sent \d+ memor/);
  await expect(recall).toContainText(/Lisbon/);

  await page.goto("/memories");
  const card = page
    .getByTestId("memory-card")
    .filter({ hasText: /Lisbon/ })
    .first();
  await expect(card.getByTestId("memory-source-excerpt")).toContainText("I live in Lisbon");
  await card.getByTestId("memory-source").click();
  await expect(page).toHaveURL(/\/chat\/.+#message-/);
  await expect(page.getByTestId("message-user").first()).toContainText(
    "I live in Lisbon and I cycle to work every day.",
  );
  await expect(page.getByTestId("imported-notice")).toContainText("Imported from ChatGPT");
  await expect(page.getByRole("textbox", { name: "Message", exact: true })).toHaveCount(0);
  await screenshot(page, "import-source-chat");
});

test("an import's page shows each exchange and what it became, leads to the extraction's record, and the imported chat offers only what works", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await registerViaUi(page, "import-page");
  await page.goto("/settings");
  await chooseImportFile(page, chatGptExportZip());
  await page.getByTestId("import-preview").getByRole("button", { name: "Import 2 conversations" }).click();
  await expect(page.getByTestId("import-progress")).toHaveAttribute("data-status", "done", { timeout: 90_000 });

  await page.getByTestId("import-page-link").click();
  await expect(page).toHaveURL(/\/settings\/imports\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("import-page-range")).toHaveText("Showing conversations 1–2 of 2, oldest first");
  await expect(page.getByTestId("import-page-counts")).toContainText("3 of 3 exchanges read");
  const conversations = page.getByTestId("import-conversation");
  await expect(conversations).toHaveCount(2);
  await expect(conversations.first()).toContainText("Commuting by bike");
  const exchanges = page.getByTestId("import-exchange");
  await expect(exchanges).toHaveCount(3);
  await expect(page.locator('[data-testid="import-exchange"][data-status="succeeded"]')).toHaveCount(3);
  const lisbon = exchanges.filter({ hasText: "I live in Lisbon" });
  await expect(lisbon.getByTestId("import-decision").first()).toContainText(/added|updated|skipped|replaced/);
  await expect(lisbon.getByTestId("import-memory-link").first()).toContainText("Lisbon");
  await screenshot(page, "import-page");

  await lisbon.getByTestId("import-inspect-link").click();
  await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}\/debug#extraction$/);
  await expect(page.getByRole("heading", { name: "Inspect this imported answer" })).toBeVisible();
  await expect(page.getByTestId("imported-exchange")).toContainText("I live in Lisbon");
  await expect(page.getByTestId("extraction-state")).toHaveText("succeeded");
  await expect(page.getByTestId("produced-memory").first()).toBeVisible();
  // What the extraction model received, each call as captured: the extraction call reads the imported exchange.
  const input = page.locator("#extraction-input");
  await expect(input.getByRole("heading", { name: "What the extraction model received" })).toBeVisible();
  const calls = input.getByTestId("extraction-model-call");
  await expect(calls.first()).toContainText("extraction: what the exchange adds");
  await expect(calls.first()).toContainText("I live in Lisbon and I cycle to work every day.");
  await screenshot(page, "import-inspect-extraction");

  // The import page's own link leads straight to it.
  await page.goBack();
  await lisbon.getByTestId("import-input-link").click();
  await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}\/debug#extraction-input$/);
  await expect(page.locator("#extraction-input")).toBeInViewport();
  await page.screenshot({ path: "e2e/screenshots/import-extraction-input.png" });

  await page.getByRole("link", { name: "Back to the chat" }).click();
  await expect(page).toHaveURL(/\/chat\/.+#message-/);
  await expect(page.getByTestId("imported-notice")).toHaveCount(1);
  await expect(page.getByTestId("imported-notice")).toContainText("Imported from ChatGPT");
  await expect(page.getByTestId("message-assistant").first()).toBeVisible();
  for (const control of [
    page.getByRole("textbox", { name: "Message", exact: true }),
    page.getByRole("button", { name: "Regenerate answer" }),
    page.getByRole("button", { name: "Edit message" }),
    page.getByRole("combobox", { name: "Model" }),
    page.getByRole("combobox", { name: "Mode" }),
    page.getByRole("button", { name: /^Temperature/ }),
  ]) {
    await expect(control).toHaveCount(0);
  }
  await expect(page.getByTestId("offline-banner")).toHaveCount(0);
  // Its answers are ChatGPT's: nothing offers to rate them or to add a note (the server refuses both).
  for (const message of [page.getByTestId("message-assistant").first(), page.getByTestId("message-user").first()]) {
    await message.hover();
    await expect(message.getByRole("button", { name: /good answer|bad answer|note/i })).toHaveCount(0);
  }
  await expect(page.getByRole("switch", { name: "Memory" })).toBeVisible();
  await expect(page.getByTestId("inspect-link").first()).toBeVisible();
  await screenshot(page, "import-chat-read-only");
});

test("'Copy for another assistant' shows the active memories as text and copies exactly that", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await registerViaUi(page, "handout");
  for (const data of [
    { content: "Is allergic to peanuts", type: "fact" },
    { content: "Prefers aisle seats on long flights", type: "preference" },
  ]) {
    expect((await page.request.post("/api/memories", { data })).status()).toBe(201);
  }
  await page.goto("/memories");
  await page.getByTestId("handout-open").click();
  const text = page.getByTestId("handout-text");
  await expect(text).toHaveValue(/\(2 memories, as of /);
  await expect(text).toHaveValue(
    /About me:\n- Is allergic to peanuts\n\nMy preferences:\n- Prefers aisle seats on long flights\n$/,
  );
  await screenshot(page, "handout");
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(page.getByTestId("handout-copied")).toHaveText("Copied 2 memories");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await text.inputValue());
});

test("an import is undone from Settings: its chats and the memories read from them are gone", async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "import-undo");
  await page.goto("/settings");
  await chooseImportFile(page, chatGptExportZip());
  await page.getByTestId("import-preview").getByRole("button", { name: "Import 2 conversations" }).click();
  await expect(page.getByTestId("import-progress")).toHaveAttribute("data-status", "done", { timeout: 90_000 });
  const found = Number(
    /(\d+) memor(?:y|ies) added or updated/.exec((await page.getByTestId("import-counts").textContent()) ?? "")?.[1],
  );
  expect(found).toBeGreaterThan(0);

  await page.getByRole("button", { name: "Undo this import…" }).click();
  await expect(page.getByTestId("import-undo-confirm")).toContainText(
    "This deletes the 2 conversations this import brought",
  );
  await screenshot(page, "import-undo-confirm");
  await page.getByRole("button", { name: "Undo import", exact: true }).click();
  await expect(page.getByTestId("import-undone")).toHaveText(
    `Import undone: 2 conversations and ${found} ${found === 1 ? "memory" : "memories"} it brought are deleted.`,
  );
  await expect(page.getByTestId("import-progress")).toHaveCount(0);
  const memories = (await (await page.request.get("/api/memories")).json()) as { total: number };
  expect(memories.total).toBe(0);
  const chats = (await (await page.request.get("/api/conversations?archived=true")).json()) as {
    conversations: unknown[];
  };
  expect(chats.conversations).toEqual([]);
});

test("an import told not to keep its conversations leaves no imported chat; its memories say where they were said", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "import-not-kept");
  await page.goto("/settings");
  await chooseImportFile(page, chatGptExportZip());
  const preview = page.getByTestId("import-preview");
  const keep = preview.getByRole("radio", { name: /^Keep them as archived, read-only chats/ });
  await expect(keep).toBeChecked();
  await preview.getByRole("radio", { name: /^Don’t keep them/ }).check();
  await screenshot(page, "import-not-kept-choice");
  await preview.getByRole("button", { name: "Import 2 conversations" }).click();
  await expect(page.getByTestId("import-progress")).toHaveAttribute("data-status", "done", { timeout: 90_000 });
  await expect(page.getByTestId("import-counts")).toContainText(/^3 of 3 exchanges read, from 2 conversations · [1-9]/);
  await expect(page.getByTestId("import-not-kept")).toHaveText(
    "Its conversations were deleted once read, as you chose; the memories read from them stay.",
  );
  await screenshot(page, "import-not-kept-done");

  // The chat list, archived chats included, has nothing imported.
  await page.goto("/");
  await page.getByRole("button", { name: "Archived" }).click();
  await expect(page.getByText("No archived chats.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Commuting by bike" })).toHaveCount(0);
  const chats = (await (await page.request.get("/api/conversations?archived=true")).json()) as {
    conversations: unknown[];
  };
  expect(chats.conversations).toEqual([]);

  await page.goto("/memories");
  const card = page
    .getByTestId("memory-card")
    .filter({ hasText: /Lisbon/ })
    .first();
  const source = card.getByTestId("memory-source");
  await expect(source).toContainText(/^Imported from ChatGPT, Commuting by bike, said on .*2023/);
  await expect(card.getByRole("link", { name: /Commuting by bike/ })).toHaveCount(0);
  await expect(card.getByTestId("memory-source-excerpt")).toContainText("I live in Lisbon");
  await screenshot(page, "import-not-kept-memory");
});

/** A small Lifeline export as GET /api/memories/export writes it (another account's ids). */
function lifelineExport(): Buffer {
  const memory = (id: string, content: string, extra: Record<string, unknown>) => ({
    id,
    userId: "99999999-9999-4999-8999-999999999999",
    content,
    title: null,
    type: "personal",
    tags: [],
    importance: 0.7,
    confidence: null,
    embeddingModel: "offline",
    sourceConversationId: null,
    sourceUserMessageId: null,
    sourceAssistantMessageId: null,
    sourceAccessTokenId: null,
    examinedMessageIds: [],
    evidence: [],
    provenance: "user_created",
    status: "active",
    supersededById: null,
    isActionable: false,
    deadline: null,
    pinned: false,
    pastedAt: null,
    createdAt: "2025-02-01T09:00:00.000Z",
    updatedAt: "2025-02-01T09:00:00.000Z",
    editedAt: null,
    redactAt: null,
    history: [
      {
        memoryId: id,
        action: "create",
        actor: "user",
        before: null,
        after: { content, status: "active" },
        reason: null,
        createdAt: "2025-02-01T09:00:00.000Z",
      },
    ],
    ...extra,
  });
  return Buffer.from(
    JSON.stringify({
      format: "lifeline-memories",
      version: 1,
      exportedAt: "2025-03-01T12:00:00.000Z",
      memories: [
        memory("m-1", "Is allergic to peanuts", { pinned: true }),
        memory("m-2", "Prefers window seats on trains", { type: "preference" }),
        memory("m-3", "Plans to learn Japanese", {
          type: "goal",
          provenance: "assistant_suggested",
          status: "pending_confirmation",
        }),
        memory("m-4", "Lives in Lisbon", { status: "superseded", supersededById: "m-5" }),
      ],
    }),
  );
}

test("a Lifeline export is previewed and restored in Settings, once", async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "import-restore");
  await page.goto("/settings");
  const file = { name: "lifeline-memories-2025-03-01.json", mimeType: "application/json", buffer: lifelineExport() };
  await chooseImportFile(page, file);
  const preview = page.getByTestId("restore-preview");
  await expect(preview).toContainText("Lifeline export of 2025-03-01: 3 memories with their history.");
  await expect(preview.getByTestId("restore-skipped")).toContainText("replaced by a newer memory: 1");
  await expect(preview).toContainText("1 memory waiting for your confirmation stays waiting.");
  await expect(preview.getByTestId("restore-choice")).toHaveText(
    "3 memories to restore; 0 already here (restored before, or the same words), not added again.",
  );
  await preview.scrollIntoViewIfNeeded();
  await preview.screenshot({ path: "e2e/screenshots/import-restore-preview.png" });
  await preview.getByRole("button", { name: "Restore 3 memories" }).click();
  await expect(preview.getByTestId("restore-result")).toContainText("Restored 3 memories; 0 already here.");

  await page.goto("/memories");
  const cards = page.getByTestId("memory-card");
  await expect(cards).toHaveCount(3);
  await expect(cards.filter({ hasText: "Is allergic to peanuts" }).getByTestId("memory-source")).toContainText(
    "Restored from a Lifeline export on",
  );
  await expect(cards.filter({ hasText: "Lives in Lisbon" })).toHaveCount(0);
  await cards.first().scrollIntoViewIfNeeded();
  await screenshot(page, "import-restored-memories");
  const pending = await (await page.request.get("/api/memories?status=pending_confirmation")).json();
  expect(pending.memories.map((m: { content: string }) => m.content)).toEqual(["Plans to learn Japanese"]);

  // The same file again: nothing to restore.
  await page.goto("/settings");
  await chooseImportFile(page, file);
  await expect(page.getByTestId("restore-choice")).toHaveText(
    "0 memories to restore; 3 already here (restored before, or the same words), not added again.",
  );
  await expect(page.getByRole("button", { name: "Restore 0 memories" })).toBeDisabled();
});

test.describe("several imports", () => {
  // The last step opens a page number past the end on purpose: the browser logs its 404.
  test.use({ expectedBrowserErrors: [/status of 404 \(Not Found\)/] });

  test("Settings lists every import newest first, each with its counts and page; a page past the last is a 404", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await registerViaUi(page, "import-list");
    const imported = async (source: "chatgpt" | "claude", fileName: string, fact: string) => {
      const created = await page.request.post("/api/imports", { data: { source, fileName } });
      expect(created.status()).toBe(201);
      const { import: row } = (await created.json()) as { import: { id: string } };
      const at = "2024-02-01T08:00:00.000Z";
      const batch = await page.request.post(`/api/imports/${row.id}/conversations`, {
        data: {
          conversations: [
            {
              sourceId: `${fileName}-1`,
              title: fact,
              createdAt: at,
              messages: [
                { sourceId: "u1", role: "user", text: fact, createdAt: at },
                // Its own words: a message another import brought is found again by its content hash.
                { sourceId: "a1", role: "assistant", text: `Noted: ${fact}`, createdAt: at },
              ],
            },
          ],
        },
      });
      expect(batch.status()).toBe(200);
      expect((await page.request.post(`/api/imports/${row.id}/start`)).status()).toBe(200);
      await expect
        .poll(
          async () =>
            ((await (await page.request.get(`/api/imports/${row.id}`)).json()) as { import: { status: string } }).import
              .status,
          { timeout: 60_000 },
        )
        .toBe("done");
      return row.id;
    };
    const older = await imported("chatgpt", "older-export.zip", "I work as a nurse in Porto.");
    const newer = await imported("claude", "newer-export.zip", "I have a cat named Miso.");

    await page.goto("/settings");
    const list = page.getByTestId("import-list");
    await expect(list.getByRole("heading")).toHaveText("Your imports, newest first");
    const items = list.getByTestId("import-list-item");
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toContainText("newer-export.zip");
    await expect(items.nth(0)).toContainText("Claude");
    await expect(items.nth(1)).toContainText("older-export.zip");
    await expect(items.nth(1)).toContainText("ChatGPT");
    for (const item of [items.nth(0), items.nth(1)]) {
      await expect(item).toHaveAttribute("data-status", "done");
      await expect(item.getByTestId("import-list-counts")).toHaveText(
        /^1 of 1 exchanges read, from 1 conversation · \d+ memor(?:y|ies) added or updated · 0 failed$/,
      );
    }
    // The progress panel shows the newest; the older one is brought into it on asking.
    await expect(page.getByTestId("import-progress")).toContainText("newer-export.zip");
    await items.nth(1).getByRole("button", { name: "Show progress" }).click();
    await expect(page.getByTestId("import-progress")).toContainText("older-export.zip");
    await screenshot(page, "import-list");

    await items.nth(1).getByTestId("import-list-link").click();
    await expect(page).toHaveURL(new RegExp(`/settings/imports/${older}$`));
    await expect(page.getByRole("heading", { name: "Import of older-export.zip" })).toBeVisible();
    await expect(page.getByTestId("import-exchange")).toContainText("I work as a nurse in Porto.");
    await screenshot(page, "import-page-older");

    const past = await page.goto(`/settings/imports/${newer}?page=2`);
    expect(past?.status()).toBe(404);
    await expect(page.getByText(/not found/i).first()).toBeVisible();
  });
});

test("an import under way shows its progress on the memories page, read again until it is done", async ({ page }) => {
  test.setTimeout(120_000);
  await registerViaUi(page, "import-memories-page");
  const created = await page.request.post("/api/imports", { data: { source: "chatgpt", fileName: "long-export.zip" } });
  const { import: row } = (await created.json()) as { import: { id: string } };
  const at = "2024-03-01T08:00:00.000Z";
  const exchanges = 60;
  const conversations = Array.from({ length: exchanges }, (_, i) => ({
    sourceId: `c${i}`,
    title: `Chat ${i}`,
    createdAt: at,
    messages: [
      { sourceId: `u${i}`, role: "user", text: `My locker number at the pool is ${1000 + i}.`, createdAt: at },
      { sourceId: `a${i}`, role: "assistant", text: `Locker ${1000 + i}, noted.`, createdAt: at },
    ],
  }));
  expect((await page.request.post(`/api/imports/${row.id}/conversations`, { data: { conversations } })).status()).toBe(
    200,
  );
  expect((await page.request.post(`/api/imports/${row.id}/start`)).status()).toBe(200);
  // Paused at once, with most of its exchanges still to read (a pause takes effect after the exchange in hand).
  expect((await page.request.post(`/api/imports/${row.id}/pause`)).status()).toBe(200);

  await page.goto("/memories");
  const shown = page.getByTestId("memories-import");
  await expect(shown).toHaveAttribute("data-status", "paused");
  await expect(shown).toContainText("Paused importing long-export.zip (ChatGPT)");
  await expect(shown.getByRole("progressbar", { name: "Import progress" })).toHaveAttribute(
    "aria-valuemax",
    String(exchanges),
  );
  await expect(shown.getByTestId("import-counts")).toHaveText(new RegExp(`^\\d+ of ${exchanges} exchanges read`));
  await expect(shown.getByRole("link", { name: "What was learned from each exchange" })).toHaveAttribute(
    "href",
    `/settings/imports/${row.id}`,
  );
  await screenshot(page, "memories-import-paused");

  // A tab left in the background reads nothing, though the paused import is read while shown.
  const reads: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname === `/api/imports/${row.id}`)
      reads.push(request.url());
  });
  await expect.poll(() => reads.length).toBeGreaterThan(0);
  await setVisibility(page, "hidden");
  const whenHidden = reads.length;
  await page.waitForTimeout(3 * importConfig.pollMs); // no event says "nothing happened": three polls' time, none made
  expect(reads.length).toBe(whenHidden);

  // Resumed elsewhere (another tab, a script) while hidden: shown again, the page reads at once and follows it to
  // the end.
  expect((await page.request.post(`/api/imports/${row.id}/resume`)).status()).toBe(200);
  const readOnShow = page.waitForRequest((request) => new URL(request.url()).pathname === `/api/imports/${row.id}`, {
    timeout: importConfig.pollMs / 2,
  });
  await setVisibility(page, "visible");
  await readOnShow;
  await expect(shown).toHaveAttribute("data-status", "done", { timeout: 90_000 });
  await expect(shown).toContainText("Imported long-export.zip (ChatGPT)");
  await expect(shown.getByTestId("import-counts")).toHaveText(
    new RegExp(`^${exchanges} of ${exchanges} exchanges read, from ${exchanges} conversations`),
  );
  // The list below follows without a reload: every memory the import left is on the page.
  const left = (await (await page.request.get("/api/memories")).json()) as { memories: { content: string }[] };
  expect(left.memories.length).toBeGreaterThan(0);
  for (const memory of left.memories)
    await expect(page.getByText(memory.content, { exact: true }).first()).toBeVisible();
  await screenshot(page, "memories-import-done");
});
