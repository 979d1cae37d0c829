import { DEMO_CLIENTS, DEMO_EMPLOYEE } from "../packages/contracts/src/demo.ts";
import { BASE_URL } from "./support/env.ts";
import { listSearch, rowWith, searchList } from "./support/admin-helpers.ts";
import { accounts, expect, test } from "./support/fixtures.ts";

const [olivia, marcus] = DEMO_CLIENTS;
const priya = `${DEMO_EMPLOYEE.firstName} ${DEMO_EMPLOYEE.lastName}`;
/** How long the demo people may take to reach the analytics server, which starts after the portal. */
const SEEDED_SYNC = { timeout: 45_000 };

test.beforeEach(async ({ login }) => {
  await login(accounts.admin);
});

test("/admin shows the client list with the spec's columns and assigned employees", async ({ page }) => {
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
  await expect(page.getByRole("columnheader")).toHaveText([
    "Client ID",
    "First Name",
    "Last Name",
    "Email",
    "Assigned Employees",
    "Sigma sync",
    "Actions",
  ]);
  await searchList(page, "Search clients", olivia.clientId);
  // Sigma sync: the seeded client reaches Sigma once the analytics server is up (retried with backoff
  // while it starts); the list follows without a reload.
  await expect(rowWith(page, olivia.clientId).getByRole("cell").nth(5)).toHaveText("Synced", SEEDED_SYNC);
  await expect(rowWith(page, olivia.clientId).getByRole("cell")).toHaveText([
    olivia.clientId,
    olivia.firstName,
    olivia.lastName,
    olivia.email,
    priya,
    "Synced",
    /Delete/,
  ]);
  // Nothing to retry for a synced client.
  await expect(rowWith(page, olivia.clientId).getByRole("button", { name: /^Retry/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "+Add Client" })).toHaveAttribute("href", "/admin/add-client");
});

test("search narrows the client list (per-word prefix), and clearing it shows everyone again", async ({
  page,
}) => {
  await page.goto("/admin/client-list");
  await expect(rowWith(page, olivia.clientId)).toHaveCount(1);
  await expect(rowWith(page, marcus.clientId)).toHaveCount(1);

  await searchList(page, "Search clients", `${olivia.firstName.slice(0, 3)} ${olivia.lastName.slice(0, 3)}`);
  await expect(rowWith(page, marcus.clientId)).toHaveCount(0);
  await expect(rowWith(page, olivia.clientId)).toHaveCount(1);
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText(/^Showing 1–\d+ of \d+/);

  // The search is in the address: Back/reload keep it.
  await page.reload();
  await expect(listSearch(page, "Search clients")).toHaveValue(
    `${olivia.firstName.slice(0, 3)} ${olivia.lastName.slice(0, 3)}`,
  );
  await expect(rowWith(page, marcus.clientId)).toHaveCount(0);

  await listSearch(page, "Search clients").fill("");
  await expect(page).toHaveURL("/admin/client-list");
  await expect(rowWith(page, marcus.clientId)).toHaveCount(1);

  await searchList(page, "Search clients", "zzz-nobody");
  await expect(page.getByText("No clients found matching “zzz-nobody”.")).toBeVisible();
});

test("the employee list shows Employee ID and Assigned Clients; search narrows it", async ({ page }) => {
  await page.goto("/admin/employee-list");
  await expect(page.getByRole("heading", { level: 1, name: "Employees" })).toBeVisible();
  await expect(page.getByRole("columnheader")).toHaveText([
    "Employee ID",
    "First Name",
    "Last Name",
    "Email",
    "Assigned Clients",
    "Sigma sync",
    "Actions",
  ]);
  await searchList(page, "Search employees", DEMO_EMPLOYEE.employeeId);
  const row = rowWith(page, DEMO_EMPLOYEE.employeeId);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(4)).toHaveText(
    `${olivia.firstName} ${olivia.lastName}, ${marcus.firstName} ${marcus.lastName}`,
  );
  await expect(row.getByRole("cell").nth(5)).toHaveText("Synced", SEEDED_SYNC);
  await expect(page.getByRole("link", { name: "+Add Employee" })).toHaveAttribute(
    "href",
    "/admin/add-employee",
  );
});

test("'Loading...' while a list loads; a load error replaces the table with the message", async ({
  page,
}) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/admin/employees*", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/admin/employee-list");
  await expect(page.getByRole("status").filter({ hasText: "Loading..." })).toBeVisible();
  release();
  await expect(page.getByRole("table")).toBeVisible();
  await page.unroute("**/api/admin/employees*");

  await page.route("**/api/admin/clients*", (route) =>
    route.fulfill({
      status: 403,
      contentType: "application/json",
      body: JSON.stringify({ error: "Only admins can list clients." }),
    }),
  );
  await page.goto("/admin/client-list");
  await expect(page.getByRole("alert")).toHaveText("Only admins can list clients.");
  await expect(page.getByRole("table")).toHaveCount(0);
});

test("a row click opens Edit Employee with the employee; Cancel returns to the list", async ({ page }) => {
  await page.goto("/admin/employee-list");
  await searchList(page, "Search employees", DEMO_EMPLOYEE.employeeId);
  await rowWith(page, DEMO_EMPLOYEE.employeeId).getByRole("cell", { name: DEMO_EMPLOYEE.email }).click();
  await expect(page).toHaveURL(`/admin/edit-employee?id=${DEMO_EMPLOYEE.employeeId}`);
  await expect(page.getByLabel("Employee ID")).toHaveValue(DEMO_EMPLOYEE.employeeId);
  await expect(page.getByLabel("Privilege")).toHaveValue(DEMO_EMPLOYEE.privilege);
  await expect(page.getByRole("button", { name: /^Assign Clients/ })).toHaveText("2 client(s) selected");
  await expect(page.getByRole("list", { name: "Selected clients" }).getByRole("listitem")).toHaveCount(2);
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL("/admin/employee-list");
});

test("edit screens without a record say so and lead back to the list", async ({ page }) => {
  await page.goto("/admin/edit-client");
  await expect(page.getByRole("alert")).toHaveText("No client selected. Choose one from the client list.");
  await page.getByRole("link", { name: "Back to clients" }).click();
  await expect(page).toHaveURL("/admin/client-list");

  await page.goto("/admin/edit-employee?id=EM-NOPE-404");
  await expect(page.getByRole("alert")).toHaveText(
    "This employee no longer exists. It may have been deleted.",
  );
});

test("the embed page frames the URL passed in navigation state, else 'No embed data available'", async ({
  page,
}) => {
  await page.goto("/admin/embed-url");
  await expect(page.getByText("No embed data available", { exact: true })).toBeVisible();
  await expect(page.locator("iframe")).toHaveCount(0);

  // React Router keeps navigation state in history.state.usr; a reload reads it back.
  const embedUrl = `${BASE_URL}/terms`;
  await page.evaluate((url) => {
    window.history.replaceState({ usr: { embedUrl: url }, key: "e2e", idx: 0 }, "", "/admin/embed-url");
  }, embedUrl);
  await page.reload();
  const frame = page.getByTitle("Embedded workbook");
  await expect(frame).toHaveAttribute("src", embedUrl);
  await expect(frame).toHaveAttribute("allow", "camera; microphone; clipboard-write; fullscreen");
  await expect(page.getByText("No embed data available", { exact: true })).toHaveCount(0);
});

test("Edit Client shows a failed Sigma sync with its reason and retries it", async ({ page }) => {
  const listed = await page.request.get(`/api/admin/clients?q=${olivia.clientId}`);
  const [record] = (await listed.json()) as Array<Record<string, unknown>>;
  if (!record) throw new Error(`${olivia.clientId} is not listed.`);
  expect(record).toMatchObject({ client_id: olivia.clientId });

  // The list passes the client along in navigation state; here that state says the last sync failed.
  await page.goto(`/admin/edit-client?id=${olivia.clientId}`);
  await page.evaluate(
    ({ client, url }) => window.history.replaceState({ usr: { client }, key: "e2e", idx: 0 }, "", url),
    {
      client: { ...record, sync_status: "failed", sync_error: "Sigma answered 503 Service Unavailable." },
      url: `/admin/edit-client?id=${olivia.clientId}`,
    },
  );
  await page.reload();
  await expect(page.getByText("Failed", { exact: true })).toBeVisible();
  await expect(page.getByText("Sigma answered 503 Service Unavailable.")).toBeVisible();

  const retried = page.waitForResponse(`**/api/admin/resyncclient/${String(record.c_id)}`);
  await page.getByRole("button", { name: "Retry sync" }).click();
  expect((await retried).status()).toBe(200);
  // Nothing had really failed on the server, and it says so.
  await expect(page.getByRole("status").filter({ hasText: "Nothing to retry." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Retry sync" })).toHaveCount(0);
});
