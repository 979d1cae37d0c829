import path from "node:path";
import { fileURLToPath } from "node:url";

import { E2E_NEW_ADMIN } from "./support/env.ts";
import { accounts, expect, submitSignIn, test } from "./support/fixtures.ts";

/**
 * README screenshots of two-step verification (docs/screenshots/two-factor-*.png): the second step of the
 * sign-in and the enrolment screen of an admin who has not set it up (the ADMIN_EMAIL admin of the run).
 * Run: npm run build && CAPTURE_SCREENSHOTS=1 npx playwright test e2e/two-factor-screens.capture.ts
 */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");
const shot = (name: string) => ({ path: path.join(outDir, `two-factor-${name}.png`) });

test("two-step verification screens", async ({ page }) => {
  await page.goto("/admin-login");
  await submitSignIn(page, accounts.admin);
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await page.screenshot(shot("sign-in"));

  await page.context().clearCookies();
  await page.goto("/admin-login");
  await submitSignIn(page, E2E_NEW_ADMIN);
  await expect(page.getByRole("heading", { name: "Set up two-step verification" })).toBeVisible();
  await page.getByLabel("Password").fill(E2E_NEW_ADMIN.password);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  await page.screenshot(shot("setup"));
});
