import path from "node:path";
import { fileURLToPath } from "node:url";

import { deactivateInSigmaByIdentityProvider, waitForAnalyticsServer } from "./support/admin-frames.ts";
import { addClientViaApi, addWorkbookViaApi, newPerson, sigmaWorkbookName } from "./support/admin-helpers.ts";
import { accounts, expect, test } from "./support/fixtures.ts";

/**
 * README screenshots of the BI sync page (docs/screenshots/admin-sync*.png) at desktop and phone width,
 * with two changes only a person can fix: a client the firm's identity provider deactivated in Sigma, and a
 * catalogue workbook Sigma does not have.
 * Run: npm run build && CAPTURE_SCREENSHOTS=1 npx playwright test e2e/admin-sync.capture.ts
 */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");

test("the BI sync page", async ({ page, login }) => {
  await login(accounts.admin);
  await waitForAnalyticsServer(page.request);
  const workbook = await addWorkbookViaApi(page, sigmaWorkbookName("Advisory-Review"), "Advisory Reviews");
  const person = newPerson("client");
  await deactivateInSigmaByIdentityProvider(page.request, person.email);
  await addClientViaApi(page, person, [workbook.id]);
  for (const [name, width, height] of [
    ["admin-sync", 1440, 900],
    ["admin-sync-phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto("/admin/sync?status=failed");
    await expect(page.getByText("identity provider (SCIM)", { exact: false }).first()).toBeVisible({
      timeout: 30_000,
    });
    await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
  }
});
