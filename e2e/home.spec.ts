import { expect, test } from "@playwright/test";
import { registerViaUi } from "./auth-helpers";

test("the home page renders and reports the embedded default", async ({ page }) => {
  // `/` needs a signed-in user: register one (the app signs them in and lands on `/`).
  await registerViaUi(page, "home");
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Lifeline" })).toBeVisible();
  await expect(page.getByTestId("status-db")).toHaveText(/pglite · pgvector 0\.8\./);
  await expect(page.getByRole("status")).toContainText("offline model");
  expect(errors).toEqual([]);
});

test("/api/health reports pglite, pgvector, the offline provider and the in-process runner", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body).toMatchObject({ ok: true, db: "pglite", jobs: "in-process" });
  expect(body.pgvector).toMatch(/^0\.8\./);
  expect(body.model).toMatch(/^offline\//);
  expect(body.embedder).toMatch(/^offline\//);
});
