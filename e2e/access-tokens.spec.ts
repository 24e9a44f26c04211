/**
 * Settings → Access tokens in Chromium: create a token (shown once, copyable), use it as a bearer
 * token against the API, see "last used" in the list, revoke it — a dialog asks first, naming the
 * token and its last use — and see the API refuse it.
 */
import { registerViaUi } from "./auth-helpers";
import { expect, screenshot, test } from "./fixtures";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("create an access token in Settings, use it, revoke it", async ({ page, request }) => {
  await registerViaUi(page, "tokens");
  await page.goto("/settings#access-tokens");
  const section = page.getByRole("region", { name: "Access tokens" });
  await expect(section.getByTestId("no-access-tokens")).toBeVisible();

  await section.getByRole("button", { name: "Create access token" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Claude Desktop");
  await dialog.getByLabel("Scope").selectOption("read");
  await dialog.getByRole("button", { name: "Create token" }).click();
  const field = dialog.getByTestId("new-access-token");
  await expect(field).toHaveValue(/^llt_[A-Za-z0-9_-]{43}$/);
  const secret = await field.inputValue();
  await dialog.getByRole("button", { name: "Copy token" }).click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await screenshot(page, "access-token-created");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  const row = section.getByTestId("access-token");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("access-token-name")).toHaveText("Claude Desktop");
  await expect(row.getByTestId("access-token-last-used")).toHaveText("never");
  // The secret is not on the page any more.
  await expect(page.getByText(secret)).toHaveCount(0);

  // Revoking asks first, naming the token and its last use; Cancel changes nothing.
  const revoke = row.getByRole("button", { name: "Revoke Claude Desktop" });
  const confirm = page.getByRole("dialog", { name: "Revoke “Claude Desktop”?" });
  await revoke.click();
  await expect(confirm).toContainText("It has never been used.");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(1);

  // The token reads the API without a cookie (Playwright's request context has none of the page's).
  const bearer = { authorization: `Bearer ${secret}` };
  const used = await request.get("/api/memories", { headers: bearer });
  expect(used.status()).toBe(200);
  await page.reload();
  await expect(row.getByTestId("access-token-last-used")).not.toHaveText("never");
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, "access-tokens");

  const lastUsed = await row.getByTestId("access-token-last-used").textContent();
  await revoke.click();
  await expect(confirm).toContainText(`Last used ${lastUsed}.`);
  await screenshot(page, "access-token-revoke");
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(confirm).toBeHidden();
  await expect(section.getByTestId("no-access-tokens")).toBeVisible();
  expect((await request.get("/api/memories", { headers: bearer })).status()).toBe(401);
});
