import path from "node:path";
import { fileURLToPath } from "node:url";

import { createTeamInSigma, waitForAnalyticsServer } from "./support/admin-frames.ts";
import { addClientViaApi, addWorkbookViaApi, newPerson, sigmaWorkbookName } from "./support/admin-helpers.ts";
import { accounts, expect, test } from "./support/fixtures.ts";

/**
 * README screenshots of the BI sync page (docs/screenshots/admin-sync*.png) at desktop and phone width,
 * with one change the BI service refuses (a team of another spelling, DEVIATIONS D31).
 * Run: npm run build && CAPTURE_SCREENSHOTS=1 npx playwright test e2e/admin-sync.capture.ts
 */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");

test("the BI sync page", async ({ page, login }) => {
  await login(accounts.admin);
  await waitForAnalyticsServer(page.request);
  await createTeamInSigma(page.request, "advisory reviews");
  const workbook = await addWorkbookViaApi(page, sigmaWorkbookName("Advisory-Review"), "Advisory Reviews");
  await addClientViaApi(page, newPerson("client"), [workbook.id]);
  for (const [name, width, height] of [
    ["admin-sync", 1440, 900],
    ["admin-sync-phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto("/admin/sync?status=failed");
    await expect(page.getByText("Sigma API 409", { exact: false }).first()).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
  }
});
