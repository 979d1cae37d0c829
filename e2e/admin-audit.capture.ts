import path from "node:path";
import { fileURLToPath } from "node:url";

import { addClientViaApi, newPerson } from "./support/admin-helpers.ts";
import { BASE_URL } from "./support/env.ts";
import { accounts, expect, test } from "./support/fixtures.ts";

/**
 * README screenshots of the audit log (docs/screenshots/admin-audit*.png) at desktop and phone width, with
 * the newest change opened to its before/after.
 * Run: npm run build && CAPTURE_SCREENSHOTS=1 npx playwright test e2e/admin-audit.capture.ts
 */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");

test("the audit log", async ({ page, login }) => {
  await login(accounts.admin);
  // A client added and renamed: the opened entry shows the name before and after.
  const person = { ...newPerson("client"), firstName: "Amelia", lastName: "Hart" };
  const client = await addClientViaApi(page, person, []);
  const renamed = await page.request.put("/api/admin/editclient", {
    data: {
      cId: client.c_id,
      clientId: person.businessId,
      firstName: "Amelia",
      lastName: "Hart-Lowe",
      privilege: "View",
    },
    headers: { Origin: BASE_URL },
  });
  expect(renamed.status()).toBe(200);
  for (const [name, width, height] of [
    ["admin-audit", 1440, 900],
    ["admin-audit-phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/admin/audit?person=${encodeURIComponent(person.email)}`);
    const rows = page.getByRole("table").locator("tbody > tr:not([hidden])");
    await expect(page.getByText("The audit trail is intact")).toBeVisible({ timeout: 30_000 });
    await rows.first().getByRole("button").click();
    await expect(page.getByRole("heading", { name: "Before" })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
  }
});
