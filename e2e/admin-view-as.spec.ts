import { accounts, expect, test } from "./support/fixtures.ts";
import {
  ANALYTICS_ORIGIN,
  demoWorkbooks,
  portfolio,
  taxCenter,
  waitForAnalyticsServer,
} from "./support/workbooks-helpers.ts";

test("View as client: an admin sees the client's own workbooks, read-only, under a banner", async ({
  page,
  login,
}) => {
  await waitForAnalyticsServer();
  await login(accounts.admin);
  await page.goto("/admin/client-list");
  await page.getByRole("link", { name: "Edit client CL-1001" }).click();
  const minted = page.waitForResponse("**/api/admin/viewasclient/*");
  await page.getByRole("link", { name: "View as client" }).click();
  await expect(page).toHaveURL(/\/admin\/view-as-client\?id=CL-1001$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Viewing as Olivia Bennett (CL-1001)");
  await expect(page.getByRole("note")).toContainText("Read-only");
  expect((await minted).status()).toBe(200);

  const tabs = page.getByRole("group", { name: "Workbooks" }).getByRole("button");
  await expect(tabs).toHaveText(demoWorkbooks.map((w) => w.label));
  const frame = page.locator(`iframe[title="${portfolio.label} as Olivia Bennett"]`);
  await expect(frame).toHaveAttribute(
    "src",
    new RegExp(`^${ANALYTICS_ORIGIN}/.*/workbook/${portfolio.name}\\?`),
  );
  await expect(frame.contentFrame().getByRole("heading", { name: portfolio.label }).first()).toBeVisible({
    timeout: 20_000,
  });
  // Her data only: the other demo client never appears in her frame.
  await expect(frame.contentFrame().getByText("CL-1002")).toHaveCount(0);

  // Another workbook: a new one-time URL.
  const second = page.waitForResponse("**/api/admin/viewasclient/*");
  await tabs.nth(1).click();
  expect((await second).status()).toBe(200);
  await expect(page.locator(`iframe[title="${taxCenter.label} as Olivia Bennett"]`)).toBeVisible();
});
