import { registerViaUi } from "./auth-helpers";
import { E2E_HEALTH_TOKEN } from "./env";
import { expect, messageBox, test } from "./fixtures";

test("/ is a new chat that names the offline model", async ({ page }) => {
  // `/` needs a signed-in user: register one (the app signs them in and lands on `/`).
  await registerViaUi(page, "home");
  await expect(page.getByRole("heading", { name: "What’s on your mind?" })).toBeVisible();
  await expect(page.getByTestId("offline-banner")).toContainText(/offline model/i);
  await expect(page.getByTestId("offline-banner")).toContainText("offline/lifeline-offline-1");
  await expect(messageBox(page)).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Model" })).toHaveValue("lifeline-offline-1");
  await expect(page.getByRole("switch", { name: "Memory" })).toBeChecked();
});

test("/api/health reports pglite, pgvector, the offline provider and the in-process runner", async ({ request }) => {
  const res = await request.get("/api/health", { headers: { authorization: `Bearer ${E2E_HEALTH_TOKEN}` } });
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body).toMatchObject({ ok: true, db: "pglite", jobs: "in-process" });
  expect(body.pgvector).toMatch(/^0\.8\./);
  expect(body.model).toMatch(/^offline\//);
  expect(body.embedder).toMatch(/^offline\//);
});
