import type { Page } from "@playwright/test";

import {
  deactivateInSigmaByIdentityProvider,
  scimRefusal,
  waitForAnalyticsServer,
} from "./support/admin-frames.ts";
import {
  addClientViaApi,
  addWorkbookViaApi,
  newPerson,
  rowWith,
  searchList,
  sigmaWorkbookName,
  uniqueToken,
} from "./support/admin-helpers.ts";
import type { TNewPerson } from "./support/admin-helpers.ts";
import { BASE_URL } from "./support/env.ts";
import { accounts, expect, test } from "./support/fixtures.ts";

/**
 * The Sigma sync column of the client and employee lists, against the real provisioning outbox and
 * the built-in analytics server (Sigma's REST API). A member the firm's identity provider deactivated in
 * Sigma (SCIM, `isInactive`) is the firm's to bring back, not the portal's: every change for that person
 * fails, with the reason, until it is.
 */
/** The outbox worker runs every 2 s; a list with pending rows is fetched again every 5 s. */
const SETTLES = { timeout: 30_000 };

test.beforeEach(async ({ login }) => {
  await login(accounts.admin);
});

async function addEmployeeViaApi(page: Page, person: TNewPerson, clientIds: number[]) {
  const response = await page.request.post("/api/admin/addemployee", {
    data: {
      employeeId: person.businessId,
      firstName: person.firstName,
      lastName: person.lastName,
      email: person.email,
      password: person.password,
      role: "employee",
      privilege: "View",
      clientIds,
    },
    headers: { Origin: BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { employee: { e_id: number } } }).data.employee;
}

/** The Sigma sync cell of a row (the sixth column, after the spec's five). */
const syncCell = (page: Page, businessId: string) => rowWith(page, businessId).getByRole("cell").nth(5);

test("a client Sigma refuses shows Failed with the reason; Retry re-queues, shows progress and refreshes the list", async ({
  page,
}) => {
  await waitForAnalyticsServer(page.request);
  const token = uniqueToken();
  const workbook = await addWorkbookViaApi(
    page,
    sigmaWorkbookName(`Sync-Good-${token}`),
    `E2E Sync ${token}`,
  );
  const syncedClient = newPerson("client");
  const failingClient = newPerson("client");
  const SIGMA_REFUSAL = scimRefusal(failingClient.email);
  await deactivateInSigmaByIdentityProvider(page.request, failingClient.email);
  await addClientViaApi(page, syncedClient, [workbook.id]);
  const failing = await addClientViaApi(page, failingClient, [workbook.id]);

  await test.step("a client Sigma accepts goes from Pending to Synced without a reload", async () => {
    await page.goto("/admin/client-list");
    await expect(page.getByRole("columnheader", { name: "Sigma sync" })).toBeVisible();
    await searchList(page, "Search clients", syncedClient.businessId);
    await expect(syncCell(page, syncedClient.businessId)).toHaveText(/^(Pending|Synced)$/);
    await expect(syncCell(page, syncedClient.businessId)).toHaveText("Synced", SETTLES);
  });

  const cell = syncCell(page, failingClient.businessId);
  const retry = cell.getByRole("button", { name: `Retry sync of client ${failingClient.businessId}` });

  await test.step("the refused client shows Failed, Sigma's reason and a described Retry", async () => {
    await searchList(page, "Search clients", failingClient.businessId);
    await expect(cell.getByText("Failed", { exact: true })).toBeVisible(SETTLES);
    await expect(cell.getByText(SIGMA_REFUSAL)).toBeVisible();
    await expect(retry).toBeEnabled();
    await expect(retry).toHaveAccessibleDescription(SIGMA_REFUSAL);
  });

  await test.step("Retry: 'Retrying...' while the server answers, then the list is fetched again", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/admin/resyncclient/*", async (route) => {
      await held;
      await route.continue();
    });
    const resynced = page.waitForResponse(`**/api/admin/resyncclient/${String(failing.c_id)}`);
    await retry.click();
    const busy = cell.getByRole("button", { name: "Retrying..." });
    await expect(busy).toBeDisabled();
    await expect(busy).toHaveAttribute("aria-busy", "true");

    // The list has no pending row (nothing polls), so the next list request is the refresh.
    const refreshed = page.waitForResponse(
      (response) => response.request().method() === "GET" && response.url().includes("/api/admin/clients?"),
    );
    release();
    const answer = await resynced;
    expect(answer.status()).toBe(200);
    // The server really had a failed delivery for this client, and put it back in the queue.
    expect(await answer.json()).toEqual({ message: "Sync retry queued.", requeued: 1 });
    const [row] = (await (await refreshed).json()) as Array<{ c_id: number; sync_status: string }>;
    expect(row).toMatchObject({ c_id: failing.c_id });
    expect(["pending", "failed"]).toContain(row?.sync_status);
    await page.unroute("**/api/admin/resyncclient/*");
    if (row?.sync_status === "pending") {
      // Usually the worker has not re-sent it yet: Pending, with the server's answer.
      await expect(cell.getByText("Pending", { exact: true })).toBeVisible();
      await expect(cell.getByRole("status")).toHaveText("Sync retry queued.");
    }
  });

  await test.step("Sigma refuses again: the list follows on its own and offers Retry again", async () => {
    await expect(cell.getByText("Failed", { exact: true })).toBeVisible(SETTLES);
    await expect(cell.getByText(SIGMA_REFUSAL)).toBeVisible();
    await expect(retry).toBeEnabled();
    await expect(cell.getByRole("status")).toHaveCount(0);
  });
});

test("an employee Sigma refuses shows Failed in the employee list; a failed Retry is reported in the row", async ({
  page,
}) => {
  await waitForAnalyticsServer(page.request);
  const token = uniqueToken();
  const workbook = await addWorkbookViaApi(
    page,
    sigmaWorkbookName(`Sync-Staff-${token}`),
    `E2E Staff ${token}`,
  );
  const client = await addClientViaApi(page, newPerson("client"), [workbook.id]);
  const person = newPerson("employee");
  const SIGMA_REFUSAL = scimRefusal(person.email);
  await deactivateInSigmaByIdentityProvider(page.request, person.email);
  const employee = await addEmployeeViaApi(page, person, [client.c_id]);

  await page.goto("/admin/employee-list");
  await expect(page.getByRole("columnheader", { name: "Sigma sync" })).toBeVisible();
  await searchList(page, "Search employees", person.businessId);
  const cell = syncCell(page, person.businessId);
  const retry = cell.getByRole("button", { name: `Retry sync of employee ${person.businessId}` });
  await expect(cell.getByText("Failed", { exact: true })).toBeVisible(SETTLES);
  await expect(cell.getByText(SIGMA_REFUSAL)).toBeVisible();

  await test.step("Retry re-queues the employee's changes and refreshes the list", async () => {
    const resynced = page.waitForResponse(`**/api/admin/resyncemployee/${String(employee.e_id)}`);
    const refreshed = page.waitForResponse(
      (response) => response.request().method() === "GET" && response.url().includes("/api/admin/employees?"),
    );
    await retry.click();
    expect(await (await resynced).json()).toEqual({ message: "Sync retry queued.", requeued: 1 });
    await refreshed;
    await expect(cell.getByRole("button", { name: "Retrying..." })).toHaveCount(0);
    await expect(cell.getByText("Failed", { exact: true })).toBeVisible(SETTLES);
    await expect(retry).toBeEnabled();
  });

  await test.step("the employee is deleted meanwhile: Retry reports the server's error in the row", async () => {
    const deleted = await page.request.delete(`/api/admin/deleteemployee/${String(employee.e_id)}`, {
      headers: { Origin: BASE_URL },
    });
    expect(deleted.status(), await deleted.text()).toBe(200);
    const resynced = page.waitForResponse(`**/api/admin/resyncemployee/${String(employee.e_id)}`);
    await retry.click();
    expect((await resynced).status()).toBe(404);
    await expect(cell.getByRole("alert")).toHaveText("Employee not found.");
    // Still offered: the admin can try again (or reload the list).
    await expect(retry).toBeEnabled();
  });
});

test("the BI sync page lists a refused change with its reason and sends failed changes again", async ({
  page,
}) => {
  await waitForAnalyticsServer(page.request);
  const token = uniqueToken();
  const workbook = await addWorkbookViaApi(
    page,
    sigmaWorkbookName(`Sync-Page-${token}`),
    `E2E Sync Page ${token}`,
  );
  const person = newPerson("client");
  const SIGMA_REFUSAL = scimRefusal(person.email);
  await deactivateInSigmaByIdentityProvider(page.request, person.email);
  await addClientViaApi(page, person, [workbook.id]);

  await page.goto("/admin/client-list");
  await page
    .getByRole("navigation", { name: "Administration" })
    .getByRole("link", { name: "BI sync" })
    .click();
  await expect(page).toHaveURL(/\/admin\/sync$/);
  await expect(page.getByRole("heading", { level: 1, name: "BI sync" })).toBeVisible();
  await expect(page.getByText("The BI service is reachable")).toBeVisible();

  await page.getByRole("button", { name: "Failed", exact: true }).click();
  await expect(page).toHaveURL(/\?status=failed$/);
  const row = page.getByRole("row").filter({ hasText: person.businessId });
  await expect(row.getByText("Failed", { exact: true })).toBeVisible(SETTLES);
  await expect(row.getByText(SIGMA_REFUSAL)).toBeVisible();
  await expect(row.getByRole("link", { name: new RegExp(`client ${person.businessId}`) })).toHaveAttribute(
    "href",
    `/admin/edit-client?id=${encodeURIComponent(person.businessId)}`,
  );

  const retried = page.waitForResponse("**/api/admin/sync/retry-failed");
  await page.getByRole("button", { name: "Retry all failed" }).click();
  const answer = await retried;
  expect(answer.status()).toBe(200);
  const { requeued } = (await answer.json()) as { requeued: number };
  expect(requeued).toBeGreaterThanOrEqual(1);
  await expect(page.getByRole("status").filter({ hasText: /failed changes? queued again/ })).toBeVisible();
  // The BI service refuses it again: back under Failed, by itself.
  await expect(row.getByText(SIGMA_REFUSAL)).toBeVisible(SETTLES);
});
