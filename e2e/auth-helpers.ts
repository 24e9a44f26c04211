import { expect, type Page } from "@playwright/test";
import { composerReady } from "./fixtures";

let n = 0;

export function newCredentials(label = "e2e") {
  n += 1;
  return {
    name: `E2E ${label}`,
    email: `${label}-${Date.now()}-${n}@example.com`,
    password: `correct-horse-${n}-battery`,
  };
}

/** Registers through the /register form; the app signs the new user in and lands on `/`, ready to chat. */
export async function registerViaUi(page: Page, label?: string) {
  const user = newCredentials(label);
  await page.goto("/register");
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await composerReady(page);
  return user;
}
