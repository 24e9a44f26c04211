import { newCredentials, registerViaUi } from "./auth-helpers";
import { expect, test } from "./fixtures";

test("register → sign out → sign in → a protected page", async ({ page }) => {
  const user = await registerViaUi(page, "journey");

  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expect(page.getByTestId("account-email")).toHaveText(user.email);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);

  // Signed out, the protected page sends us to sign in, and back afterwards.
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsettings$/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId("account-email")).toHaveText(user.email);
  await expect(page.getByTestId("account-name")).toHaveText(user.name);
});

test("a wrong password shows an error and does not sign in", async ({ page, request }) => {
  const user = newCredentials("wrongpw");
  const res = await request.post("/api/auth/register", { data: user });
  expect(res.status()).toBe(201);

  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("definitely-not-it");
  await page.getByRole("button", { name: "Sign in" }).click();
  // (Next's route announcer is also role=alert, hence the filter.)
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel("Email")).toHaveValue(user.email);

  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsettings$/);
});

test("a signed-out visit of / goes to /login", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2F$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test.describe("a taken email", () => {
  // The register API answers 409 on purpose here.
  test.use({ expectedBrowserErrors: [/status of 409 \(Conflict\)/] });

  test("registering a taken email explains it on the email field", async ({ page, request }) => {
    const user = newCredentials("taken");
    expect((await request.post("/api/auth/register", { data: user })).status()).toBe(201);

    await page.goto("/register");
    await page.getByLabel("Name").fill("Someone Else");
    await page.getByLabel("Email").fill(user.email.toUpperCase());
    await page.getByLabel("Password").fill("another-password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "already exists" })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/register$/);
  });
});
