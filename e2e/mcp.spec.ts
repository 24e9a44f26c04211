/**
 * An assistant's MCP calls as the user sees them, in Chromium: a token created in Settings, the
 * official MCP client (from the test, as an assistant would) calling get_memory_context and
 * list_memories, then Settings → Recent external calls, the call's record with the debug view's
 * candidate table, and "read by ‹token›" on the memories page. Screenshots: desktop and phone.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { registerViaUi } from "./auth-helpers";
import { expect, screenshot, test } from "./fixtures";

test("an external assistant's calls are listed and inspectable", async ({ page, baseURL }) => {
  await registerViaUi(page, "mcp");
  for (const content of ["Allergic to peanuts", "Lives in Porto, Portugal", "Training for the Lisbon marathon"]) {
    const created = await page.request.post("/api/memories", { data: { content } });
    expect(created.status()).toBe(201);
  }
  await page.goto("/settings#access-tokens");
  const section = page.getByRole("region", { name: "Access tokens" });
  await section.getByRole("button", { name: "Create access token" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Claude Desktop");
  await dialog.getByLabel("Scope").selectOption("read");
  await dialog.getByRole("button", { name: "Create token" }).click();
  const secret = await dialog.getByTestId("new-access-token").inputValue();
  await dialog.getByRole("button", { name: "Done" }).click();

  const client = new Client({ name: "e2e-assistant", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  );
  const context = (await client.callTool({
    name: "get_memory_context",
    arguments: { message: "Can I eat satay sauce with my peanut allergy?" },
  })) as { content: { text: string }[] };
  const received = context.content[0]?.text ?? "";
  expect(received).toContain("peanuts");
  await client.callTool({ name: "list_memories", arguments: { limit: 5 } });
  await client.close();

  await page.reload();
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, "mcp-access-tokens");
  await page.getByTestId("external-calls-link").click();
  const calls = page.getByTestId("external-call");
  await expect(calls).toHaveCount(2);
  await expect(calls.first()).toContainText("list_memories");
  await screenshot(page, "mcp-external-calls");

  await calls.filter({ hasText: "get_memory_context" }).click();
  await expect(page.getByRole("heading", { name: "get_memory_context" })).toBeVisible();
  // The record holds what the client received, byte for byte.
  expect(await page.getByTestId("call-result").textContent()).toBe(received);
  await expect(page.getByRole("region", { name: "Why these memories" })).toContainText("Allergic to peanuts");
  await screenshot(page, "mcp-external-call");
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "mcp-external-call-phone");
  await page.setViewportSize({ width: 1280, height: 820 });
  // An external call is not part of an answer: its accesses count once per call.
  await page.goBack();
  await calls.filter({ hasText: "list_memories" }).click();
  await expect(page.getByTestId("tool-call-rule")).toContainText("(once per call)");

  await page.goto("/memories");
  await expect(page.getByTestId("memory-read-by").first()).toHaveText("read by Claude Desktop");
  await screenshot(page, "mcp-memories-read-by");
});
