import path from "node:path";
import { fileURLToPath } from "node:url";

import { accounts, test } from "./support/fixtures.ts";
import {
  expectWorkbookLoaded,
  portfolio,
  scriptEmbedAnswers,
  waitForAnalyticsServer,
} from "./support/workbooks-helpers.ts";

/**
 * Screenshots of the workbook view. Run: CAPTURE_SCREENSHOTS=1 npx playwright test e2e/workbooks-
 * The README ones go to docs/screenshots; the collapsed and error states, for review, to .tmp/workbooks-screenshots.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const docs = (name: string) => ({ path: path.join(root, "docs/screenshots", `${name}.png`) });
const review = (name: string) => ({ path: path.join(root, ".tmp/workbooks-screenshots", `${name}.png`) });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await waitForAnalyticsServer();
});

test("workbook view", async ({ page, login }) => {
  await login(accounts.client);
  await page.goto("/");
  await expectWorkbookLoaded(page, portfolio.label);
  await page.screenshot(docs("workbook"));

  await page.getByRole("button", { name: "Collapse sidebar" }).click();
  await page.getByRole("button", { name: "Expand sidebar" }).waitFor();
  await page.screenshot(review("workbook-collapsed"));
  await page.screenshot({ ...review("workbook-collapsed-full"), fullPage: true });

  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expectWorkbookLoaded(page, portfolio.label);
  await page.screenshot(docs("workbook-phone"));
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await page.getByRole("dialog", { name: "Menu" }).waitFor();
  await page.screenshot(review("workbook-phone-sidebar"));
});

test("workbook view: loading and error states", async ({ page, login }) => {
  await login(accounts.client);
  const failure = {
    status: 500,
    body: JSON.stringify({ error: "Something went wrong on our side. Please try again." }),
  };
  await scriptEmbedAnswers(page, [failure, failure]);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto("/");
  await page.locator('[data-embed-state="error"]').waitFor();
  await page.screenshot(review("workbook-error-phone"));

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await page.locator('[data-embed-state="error"]').waitFor();
  await page.screenshot(review("workbook-error"));

  // The skeleton: hold the next embed call until the screenshot is taken.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.unroute("**/api/sigma/provision-and-embed");
  await page.route("**/api/sigma/provision-and-embed", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("button", { name: "Try again" }).click();
  await page.locator('[data-embed-state="minting"]').waitFor();
  await page.screenshot(review("workbook-loading"));
  release();
  await expectWorkbookLoaded(page, portfolio.label);
});
