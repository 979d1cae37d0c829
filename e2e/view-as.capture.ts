import path from "node:path";
import { fileURLToPath } from "node:url";

import { accounts, expect, test } from "./support/fixtures.ts";
import { waitForAnalyticsServer } from "./support/workbooks-helpers.ts";

/**
 * README screenshots of View as client (docs/screenshots/admin-view-as*.png) at desktop and phone width.
 * Run: npm run build && CAPTURE_SCREENSHOTS=1 npx playwright test e2e/view-as.capture.ts
 */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");

test("View as client", async ({ page, login }) => {
  await waitForAnalyticsServer();
  await login(accounts.admin);
  for (const [name, width, height] of [
    ["admin-view-as", 1440, 900],
    ["admin-view-as-phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto("/admin/view-as-client?id=CL-1001");
    const frame = page.locator('iframe[title="Portfolio Overview as Olivia Bennett"]');
    await expect(
      frame.contentFrame().getByRole("heading", { name: "Portfolio Overview" }).first(),
    ).toBeVisible({
      timeout: 20_000,
    });
    await page.waitForTimeout(1500);
    await page.screenshot({ path: path.join(outDir, `${name}.png`) });
  }
});
