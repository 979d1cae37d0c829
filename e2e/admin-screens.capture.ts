import path from "node:path";
import { fileURLToPath } from "node:url";

import { accounts, expect, test } from "./support/fixtures.ts";

/**
 * README screenshots of the back office (docs/screenshots/admin-*.png), from the demo data.
 * Run: npm run build && CAPTURE_SCREENSHOTS=1 npx playwright test e2e/admin-screens.capture.ts
 */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");
const shot = (name: string) => ({ path: path.join(outDir, `admin-${name}.png`) });

test.beforeEach(async ({ login }) => {
  await login(accounts.admin);
});

test("back-office screens", async ({ page }) => {
  await page.goto("/admin/client-list");
  await expect(page.getByRole("row").filter({ hasText: "CL-1001" })).toBeVisible();
  // The demo clients reach Sigma once the analytics server is up; the list shows it without a reload.
  await expect(page.getByText("Synced", { exact: true })).toHaveCount(2, { timeout: 60_000 });
  await page.screenshot(shot("clients"));

  await page
    .getByRole("row")
    .filter({ hasText: "CL-1001" })
    .getByRole("button", { name: /^Delete/ })
    .click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await page.screenshot(shot("delete-dialog"));
  await page.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("link", { name: "Edit client CL-1001" }).click();
  await expect(page.getByText("Portfolio Overview", { exact: true })).toBeVisible();
  await page.screenshot(shot("edit-client"));

  await page.goto("/admin/add-client");
  await page.getByLabel("Client ID").fill("CL-1003");
  await page.getByLabel("First Name").fill("Helena");
  await page.getByLabel("Last Name").fill("Marsh");
  await page.getByLabel("Email").fill("helena.marsh@example.com");
  // "Set a password" (the spec's form; "Send an invitation" is the default, D55).
  await page.getByRole("radio", { name: "Set a password" }).check();
  await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery");
  await page.getByLabel("Privilege").selectOption("View");
  const workbooks = page.getByRole("button", { name: /^Workbooks/ });
  await workbooks.click();
  await page.getByRole("option", { name: /Portfolio Overview/ }).click();
  await page.getByRole("option", { name: /Tax Center/ }).click();
  await page.keyboard.press("Escape");
  await expect(workbooks).toHaveText("2 workbook(s) selected");
  await page.evaluate(() => window.scrollTo(0, 330));
  await page.screenshot(shot("add-client"));

  await page.goto("/admin/add-employee");
  await page.getByLabel("Employee ID").fill("EM-2002");
  await page.getByLabel("First Name").fill("Jordan");
  await page.getByLabel("Last Name").fill("Avery");
  await page.getByLabel("Privilege").selectOption("Analyze");
  const assign = page.getByRole("button", { name: /^Assign Clients/ });
  await assign.click();
  await page.getByRole("option", { name: /Olivia Bennett/ }).click();
  await expect(assign).toHaveText("1 client(s) selected");
  await page.evaluate(() => window.scrollTo(0, 300));
  await page.screenshot(shot("add-employee-dropdown"));

  await page.goto("/admin/workbook-list");
  await expect(page.getByRole("row").filter({ hasText: "Tax-Center" })).toBeVisible();
  await page.screenshot(shot("workbooks"));
});

test("back-office screens on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto("/admin/client-list");
  await expect(page.getByRole("link", { name: "Edit client CL-1001" })).toBeVisible();
  await expect(page.getByText("Synced", { exact: true })).toHaveCount(2, { timeout: 60_000 });
  await page.screenshot(shot("clients-phone"));
});
