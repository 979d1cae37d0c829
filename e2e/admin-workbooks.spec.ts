import {
  addWorkbookViaApi,
  rowWith,
  searchList,
  sigmaWorkbookName,
  uniqueToken,
} from "./support/admin-helpers.ts";
import { accounts, expect, test } from "./support/fixtures.ts";
import { ANALYTICS_ORIGIN, demoWorkbooks, waitForAnalyticsServer } from "./support/workbooks-helpers.ts";

test.beforeEach(async ({ login }) => {
  await login(accounts.admin);
});

test("add a workbook: 'All fields are required.', the server's name rule, then saved and listed", async ({
  page,
}) => {
  const workbookName = sigmaWorkbookName("Quarterly Review");
  let addRequests = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/api/admin/addworkbook")) addRequests += 1;
  });

  await page.goto("/admin/workbook-list");
  await page.getByRole("link", { name: "+Add Workbook" }).click();
  await expect(page).toHaveURL("/admin/add-workbook");
  await expect(page.getByRole("heading", { level: 1, name: "Add Workbook" })).toBeVisible();

  // Empty form: the spec's message, fields flagged, nothing sent.
  await page.getByRole("button", { name: "Add Workbook" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "All fields are required." })).toBeVisible();
  await expect(page.getByLabel("Workbook Name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Team Name")).toHaveAttribute("aria-invalid", "true");
  expect(addRequests).toBe(0);

  // Not a Sigma URL name: the rule's own explanation.
  await page.getByLabel("Workbook Name").fill("Quarterly Review");
  await page.getByLabel("Team Name").fill("Review Clients");
  await page.getByRole("button", { name: "Add Workbook" }).click();
  await expect(page.getByText(/must be the workbook's Sigma URL name/)).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "All fields are required." })).toHaveCount(0);
  expect(addRequests).toBe(0);

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/admin/addworkbook", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel("Workbook Name").fill(workbookName);
  await page.getByRole("button", { name: "Add Workbook" }).click();
  await expect(page.getByRole("button", { name: "Saving..." })).toBeDisabled();
  release();

  await expect(page).toHaveURL("/admin/workbook-list");
  await expect(page.getByRole("status").filter({ hasText: "Workbook added successfully." })).toBeVisible();
  await searchList(page, "Search workbooks", workbookName);
  await expect(rowWith(page, workbookName)).toHaveCount(1);
  await expect(rowWith(page, workbookName)).toContainText("Review Clients");
  expect(addRequests).toBe(1);
});

test("a duplicate workbook name shows the server's error", async ({ page }) => {
  const existing = await addWorkbookViaApi(page, sigmaWorkbookName("Estate Plan"), "Estate Clients");
  await page.goto("/admin/add-workbook");
  await page.getByLabel("Workbook Name").fill(existing.workbook_name);
  await page.getByLabel("Team Name").fill("Other Team");
  await page.getByRole("button", { name: "Add Workbook" }).click();
  await expect(page.getByRole("alert")).toHaveText(/already exists/);
  await expect(page).toHaveURL("/admin/add-workbook");
});

test("a team name that differs from another workbook's team only in case shows the server's error (D31)", async ({
  page,
}) => {
  const team = `Case Team ${uniqueToken()}`;
  await addWorkbookViaApi(page, sigmaWorkbookName("Case One"), team);
  await page.goto("/admin/add-workbook");
  await page.getByLabel("Workbook Name").fill(sigmaWorkbookName("Case Two"));
  await page.getByLabel("Team Name").fill(team.toLowerCase());
  await page.getByRole("button", { name: "Add Workbook" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    `Another workbook uses the team ${team}. Use exactly that name to share the team, or a different name.`,
  );
  await expect(page).toHaveURL("/admin/add-workbook");
});

test("edit a workbook: row click, 'Updating...', one second, back to the workbook list", async ({ page }) => {
  const workbook = await addWorkbookViaApi(page, sigmaWorkbookName("Cash Flow"), "Cash Clients");
  const renamed = sigmaWorkbookName("Cash Flow Monthly");

  await page.goto("/admin/workbook-list");
  await searchList(page, "Search workbooks", workbook.workbook_name);
  await rowWith(page, workbook.workbook_name).getByRole("cell", { name: "Cash Clients" }).click();
  await expect(page).toHaveURL(`/admin/edit-workbook?name=${encodeURIComponent(workbook.workbook_name)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Edit Workbook" })).toBeVisible();
  await expect(page.getByLabel("Workbook Name")).toHaveValue(workbook.workbook_name);
  await expect(page.getByLabel("Team Name")).toHaveValue("Cash Clients");

  // Blank team: the spec's message and no call.
  await page.getByLabel("Team Name").fill("");
  await page.getByRole("button", { name: "Update Workbook" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "All fields are required." })).toBeVisible();

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/admin/editworkbook/*", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel("Workbook Name").fill(renamed);
  await page.getByLabel("Team Name").fill("Cash Clients Monthly");
  // The page notes when the success text appears and when the list replaces the form, so the one second
  // is measured where it happens, not by how soon this runner's polling notices (it lags on a busy machine).
  await page.evaluate(() => {
    const times: Record<string, number> = {};
    (window as unknown as { successTimes: Record<string, number> }).successTimes = times;
    new MutationObserver(() => {
      if (!times.shown && document.body.textContent?.includes("Workbook updated successfully.")) {
        times.shown = performance.now();
      }
      if (times.shown && !times.left && location.pathname === "/admin/workbook-list")
        times.left = performance.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByRole("button", { name: "Update Workbook" }).click();
  await expect(page.getByRole("button", { name: "Updating..." })).toBeDisabled();
  release();

  // Success is shown on the form first, then (after the spec's one second) the list.
  await expect(page.getByRole("status").filter({ hasText: "Workbook updated successfully." })).toBeVisible();
  await expect(page).toHaveURL("/admin/workbook-list");
  const [shown, left] = await page.evaluate(() => {
    const times = (window as unknown as { successTimes: Record<string, number> }).successTimes;
    return [times.shown ?? 0, times.left ?? 0];
  });
  expect(shown).toBeGreaterThan(0);
  expect(left - shown).toBeGreaterThanOrEqual(950);

  await searchList(page, "Search workbooks", renamed);
  await expect(rowWith(page, renamed)).toContainText("Cash Clients Monthly");
});

test("Edit Workbook opened from the address bar loads the workbook by name", async ({ page }) => {
  const workbook = await addWorkbookViaApi(page, sigmaWorkbookName("Trust Review"), "Trust Clients");
  await page.goto(`/admin/edit-workbook?name=${encodeURIComponent(workbook.workbook_name)}`);
  await expect(page.getByLabel("Workbook Name")).toHaveValue(workbook.workbook_name);
  await expect(page.getByLabel("Team Name")).toHaveValue("Trust Clients");

  await page.goto("/admin/edit-workbook?name=No-Such-Workbook-aaaaaaaaaaaaaaaaaaaaaa");
  await expect(page.getByRole("alert")).toHaveText(
    "This workbook no longer exists. It may have been deleted.",
  );
  await expect(page.getByRole("link", { name: "Back to workbooks" })).toBeVisible();
});

test("delete a workbook: Cancel keeps the row, 'Yes, Delete' removes it", async ({ page }) => {
  const workbook = await addWorkbookViaApi(page, sigmaWorkbookName("Pension Outlook"), "Pension Clients");
  await page.goto("/admin/workbook-list");
  await searchList(page, "Search workbooks", workbook.workbook_name);
  const row = rowWith(page, workbook.workbook_name);
  await expect(row).toHaveCount(1);

  await row.getByRole("button", { name: /^Delete/ }).click();
  const dialog = page.getByRole("alertdialog", { name: "Are you sure you want to delete this workbook?" });
  await expect(dialog).toBeVisible();
  // Focus starts inside the dialog, on the safe choice.
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(1);

  // Escape closes it too, and the focus goes back to the Delete button.
  await row.getByRole("button", { name: /^Delete/ }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row.getByRole("button", { name: /^Delete/ })).toBeFocused();

  await row.getByRole("button", { name: /^Delete/ }).click();
  await dialog.getByRole("button", { name: "Yes, Delete" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(page.getByText(`No workbooks found matching “${workbook.workbook_name}”.`)).toBeVisible();

  // Gone on the server too.
  const check = await page.request.get(
    `/api/admin/workbooks?q=${encodeURIComponent(workbook.workbook_name)}`,
  );
  expect(await check.json()).toEqual([]);
});

test("a failed delete is reported in a browser alert and the row stays", async ({ page }) => {
  const workbook = await addWorkbookViaApi(page, sigmaWorkbookName("Gift Tax"), "Gift Clients");
  await page.goto("/admin/workbook-list");
  await searchList(page, "Search workbooks", workbook.workbook_name);
  await page.route("**/api/admin/deleteworkbook/*", (route) =>
    route.fulfill({ status: 404, contentType: "application/json", body: '{"error":"Workbook not found."}' }),
  );
  // Dismissed as it opens: an open alert blocks the page, and with it any action still in flight.
  const alerts: Array<{ type: string; message: string }> = [];
  page.on("dialog", (dialog) => {
    alerts.push({ type: dialog.type(), message: dialog.message() });
    void dialog.dismiss();
  });
  await rowWith(page, workbook.workbook_name)
    .getByRole("button", { name: /^Delete/ })
    .click();
  await page.getByRole("button", { name: "Yes, Delete" }).click();
  await expect.poll(() => alerts).toEqual([{ type: "alert", message: "Workbook not found." }]);
  await expect(page.getByRole("alertdialog")).toBeHidden();
  await expect(rowWith(page, workbook.workbook_name)).toHaveCount(1);
});

test("empty catalogue and load failure texts", async ({ page }) => {
  await page.route("**/api/admin/workbooks*", (route) =>
    route.fulfill({
      status: 200,
      contentType: "application/json",
      headers: { "X-Total-Count": "0" },
      body: "[]",
    }),
  );
  await page.goto("/admin/workbook-list");
  await expect(page.getByText("No workbooks found.", { exact: true })).toBeVisible();

  await page.unroute("**/api/admin/workbooks*");
  await page.route("**/api/admin/workbooks*", (route) =>
    route.fulfill({ status: 500, contentType: "text/plain", body: "boom" }),
  );
  await page.reload();
  await expect(page.getByRole("alert")).toHaveText("Failed to load workbooks.");
  await expect(page.getByRole("table")).toHaveCount(0);
});

test("the workbook list shows the spec's columns and pages through a search with Previous/Next", async ({
  page,
}) => {
  const token = uniqueToken();
  // 52 matches: one full page of 50 and a second page of 2.
  for (let batch = 0; batch < 52; batch += 13) {
    await Promise.all(
      Array.from({ length: 13 }, (_, i) =>
        addWorkbookViaApi(page, sigmaWorkbookName(`Paging ${token} ${batch + i}`), `Paging Team ${token}`),
      ),
    );
  }

  await page.goto("/admin/workbook-list");
  await expect(page.getByRole("columnheader")).toHaveText(["ID", "Workbook Name", "Team Name", "Action"]);
  await searchList(page, "Search workbooks", token);
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await expect(pagination).toContainText("Showing 1–50 of 52");
  await expect(page.getByRole("row").filter({ hasText: token })).toHaveCount(50);
  await expect(pagination.getByRole("button", { name: "Previous" })).toBeDisabled();

  await pagination.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(pagination).toContainText("Showing 51–52 of 52");
  await expect(page.getByRole("row").filter({ hasText: token })).toHaveCount(2);
  await expect(pagination.getByRole("button", { name: "Next" })).toBeDisabled();

  // The page is in the address: a reload shows the same page.
  await page.reload();
  await expect(pagination).toContainText("Showing 51–52 of 52");

  await pagination.getByRole("button", { name: "Previous" }).click();
  await expect(pagination).toContainText("Showing 1–50 of 52");
});

test("Preview opens the embed page with a freshly minted admin URL of the workbook", async ({ page }) => {
  await waitForAnalyticsServer();
  const [portfolio] = demoWorkbooks;
  await page.goto("/admin/workbook-list");
  const minted = page.waitForResponse("**/api/sigma/provision-and-embed");
  await page.getByRole("button", { name: `Preview workbook ${portfolio!.name}` }).click();
  expect((await minted).status()).toBe(200);
  await expect(page).toHaveURL(/\/admin\/embed-url$/);
  const frame = page.locator('iframe[title="Embedded workbook"]');
  await expect(frame).toHaveAttribute(
    "src",
    new RegExp(`^${ANALYTICS_ORIGIN}/.*/workbook/${portfolio!.name}\\?.*:jwt=`),
  );
  // The analytics server accepted the one-time URL and shows the workbook.
  await expect(frame.contentFrame().getByRole("heading", { name: portfolio!.label }).first()).toBeVisible({
    timeout: 20_000,
  });
});
