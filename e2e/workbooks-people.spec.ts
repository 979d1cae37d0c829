import { expect as baseExpect } from "@playwright/test";

import { addClientViaApi, newPerson, uniqueToken } from "./support/admin-helpers.ts";
import { BASE_URL } from "./support/env.ts";
import { accounts, expect, test } from "./support/fixtures.ts";
import {
  expectWorkbookLoaded,
  portfolio,
  waitForAnalyticsServer,
  workbookFrame,
} from "./support/workbooks-helpers.ts";

/**
 * The portal is the system of record for people (issue 12): a client the admin adds under an id the demo
 * data also has, and one under an id it does not, each see only their own accounts; their advisor's client
 * picker shows the names the portal holds.
 */
test("clients added by an admin see their own portfolio; their advisor's picker shows the portal's names", async ({
  page,
  login,
}) => {
  test.setTimeout(120_000);
  await waitForAnalyticsServer();
  await login(accounts.admin);
  const catalogue = (await (await page.request.get("/api/admin/workbooks?q=Portfolio")).json()) as {
    id: number;
    workbook_name: string;
  }[];
  const workbookId = catalogue.find((w) => w.workbook_name === portfolio.name)!.id;
  const token = uniqueToken();
  const demoId = {
    ...newPerson("client"),
    businessId: "CL-1003",
    firstName: "Hannah",
    lastName: `Whitfield${token.slice(0, 4)}`,
  };
  const newId = newPerson("client");
  const added = [
    await addClientViaApi(page, demoId, [workbookId]),
    await addClientViaApi(page, newId, [workbookId]),
  ];
  const advisor = newPerson("employee");
  const employee = await page.request.post("/api/admin/addemployee", {
    data: {
      employeeId: advisor.businessId,
      firstName: advisor.firstName,
      lastName: advisor.lastName,
      email: advisor.email,
      password: advisor.password,
      role: "employee",
      privilege: "View",
      clientIds: added.map((c) => c.c_id),
    },
    headers: { Origin: BASE_URL },
  });
  baseExpect(employee.status(), await employee.text()).toBe(201);

  for (const person of [demoId, newId]) {
    await login(person);
    await page.goto("/");
    await expectWorkbookLoaded(page, portfolio.label);
    const inFrame = workbookFrame(page, portfolio.label).contentFrame();
    const accountOptions = inFrame.locator('select[data-control-id="Account"] option');
    await expect(accountOptions.nth(1)).toBeAttached();
    const shown = (await accountOptions.allTextContents()).filter((text) => text !== "All accounts");
    expect(shown.length).toBeGreaterThan(0);
    for (const text of shown) expect(text).toContain(`(${person.businessId}-`);
    // Figures of their own: a total value above zero.
    await expect(inFrame.getByText(/\$[1-9][\d,]*/).first()).toBeVisible();
  }

  await login(advisor);
  await page.goto("/");
  await expectWorkbookLoaded(page, portfolio.label);
  const clientOptions = workbookFrame(page, portfolio.label)
    .contentFrame()
    .locator('select[data-control-id="Client"] option');
  await expect(clientOptions).toHaveText([
    "All clients",
    `${demoId.firstName} ${demoId.lastName} (CL-1003)`,
    `${newId.firstName} ${newId.lastName} (${newId.businessId})`,
  ]);
});
