import path from "node:path";
import { fileURLToPath } from "node:url";

import { uniqueToken } from "./support/admin-helpers.ts";
import { CLIENT_HEADER, clientRows, csvFile } from "./support/import-files.ts";
import { accounts, expect, test } from "./support/fixtures.ts";

/**
 * README screenshots of the CSV import (docs/screenshots/admin-import*.png): the preview with its problems
 * and the final report, at desktop and phone width.
 * Run: npm run build && CAPTURE_SCREENSHOTS=1 npx playwright test e2e/admin-import.capture.ts
 */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");

test("the CSV import", async ({ page, login }) => {
  test.slow();
  await login(accounts.admin);
  const { good, bad } = clientRows(uniqueToken());
  await page.goto("/admin/import?kind=client");
  await page.getByLabel("CSV file").setInputFiles({
    name: "clients.csv",
    mimeType: "text/csv",
    buffer: csvFile([CLIENT_HEADER, ...good.slice(0, 6), ...bad]),
  });
  await page.getByRole("button", { name: "Upload and check" }).click();
  await expect(page.getByTestId("import-summary")).toBeVisible();
  const jobUrl = page.url();
  for (const [name, width, height] of [
    ["admin-import-preview", 1440, 900],
    ["admin-import-preview-phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(jobUrl);
    await expect(page.getByTestId("import-summary")).toBeVisible();
    await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
  }
  await page.getByRole("button", { name: "Import 6 clients" }).click();
  await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 60_000 });
  for (const [name, width, height] of [
    ["admin-import-report", 1440, 900],
    ["admin-import-report-phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(jobUrl);
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible();
    await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
  }
});
