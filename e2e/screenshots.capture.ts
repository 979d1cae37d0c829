import path from "node:path";
import { fileURLToPath } from "node:url";

import { accounts, test } from "./support/fixtures.ts";

/** Screenshots for the README (docs/screenshots). Run: CAPTURE_SCREENSHOTS=1 npx playwright test */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");
const shot = (name: string) => ({ path: path.join(outDir, `${name}.png`) });

test("anonymous screens", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("heading", { name: "Welcome Back" }).waitFor();
  await page.screenshot(shot("login"));

  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await page.getByRole("heading", { name: "Welcome Back" }).waitFor();
  await page.screenshot(shot("login-phone"));
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto("/admin-login");
  await page.getByRole("heading", { name: "Admin Login" }).waitFor();
  await page.screenshot(shot("admin-login"));

  await page.goto("/no-such-page");
  await page.getByRole("heading", { name: "Oops! Page not found." }).waitFor();
  await page.screenshot(shot("not-found"));
});

test("client screens", async ({ page, login }) => {
  await login(accounts.client);
  await page.goto("/");
  await page.locator('[data-embed-state="loaded"]').waitFor();
  await page.screenshot(shot("home"));

  await page.goto("/profile");
  await page.getByRole("heading", { name: "Your profile" }).waitFor();
  await page.screenshot(shot("profile"));
});

test("admin screens", async ({ page, login }) => {
  await login(accounts.admin);
  await page.goto("/admin");
  await page.getByRole("heading", { level: 1, name: "Clients" }).waitFor();
  // The demo clients reach Sigma once the analytics server is up; the list shows it without a reload.
  await page.getByText("Synced", { exact: true }).nth(1).waitFor({ timeout: 60_000 });
  await page.screenshot(shot("admin"));
});
