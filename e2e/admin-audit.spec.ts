import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { parse } from "csv-parse/sync";

import { addClientViaApi, newPerson } from "./support/admin-helpers.ts";
import { BASE_URL } from "./support/env.ts";
import { accounts, expect, postAuth, test } from "./support/fixtures.ts";

/** More entries about the client than one page of the log (50) holds, so the export must take them all. */
const EDITS = 55;

test("an admin filters the audit log to one client, opens an entry, and exports every matching row", async ({
  page,
  login,
  playwright,
}) => {
  test.setTimeout(120_000);
  await login(accounts.admin);
  const person = newPerson("client");
  const client = await addClientViaApi(page, person, []);
  for (let i = 1; i <= EDITS; i++) {
    const response = await page.request.put("/api/admin/editclient", {
      data: {
        cId: client.c_id,
        clientId: person.businessId,
        firstName: person.firstName,
        lastName: `${person.lastName}-${i}`,
        privilege: "View",
      },
      headers: { Origin: BASE_URL },
    });
    expect(response.status(), await response.text()).toBe(200);
  }
  // The client signs in on their own device: an entry where they are the one acting.
  const device = await playwright.request.newContext({ baseURL: BASE_URL });
  expect(
    (await postAuth(device, "/sign-in/email", { email: person.email, password: person.password })).status(),
  ).toBe(200);
  await device.dispose();

  await page.goto("/admin/client-list");
  await page
    .getByRole("navigation", { name: "Administration" })
    .getByRole("link", { name: "Audit log" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await expect(page.getByText("The audit trail is intact")).toBeVisible({ timeout: 30_000 });

  await page.getByLabel("Person's email").fill(person.email.toUpperCase());
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`person=${encodeURIComponent(person.email)}`));
  const expected = EDITS + 2; // created, 55 edits, one sign-in
  await expect(page.getByText(`${expected} matching entries`)).toBeVisible();
  const rows = page.getByRole("table").locator("tbody > tr:not([hidden])");
  await expect(rows).toHaveCount(50);
  // Newest first: the sign-in, then the last edit.
  await expect(rows.first()).toContainText("auth.sign_in");
  await expect(rows.nth(1)).toContainText("client.updated");

  // The last edit's row shows what it changed.
  await rows.nth(1).getByRole("button").click();
  const details = page.getByRole("table").locator("tbody > tr:not([hidden])").nth(2);
  await expect(details.getByRole("heading", { name: "Before" })).toBeVisible();
  await expect(details).toContainText(`"last_name": "${person.lastName}-${EDITS - 1}"`);
  await expect(details).toContainText(`"last_name": "${person.lastName}-${EDITS}"`);
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
    [],
  );

  // The older page holds the rest, the first entry being the client's creation.
  await page.getByRole("button", { name: "Older" }).click();
  await expect(page.getByRole("table").locator("tbody > tr:not([hidden])")).toHaveCount(expected - 50);
  await expect(page.getByRole("table").locator("tbody > tr:not([hidden])").last()).toContainText(
    "client.created",
  );
  await expect(page.getByRole("button", { name: "Older" })).toBeDisabled();

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByText(`Exported ${expected} rows.`)).toBeVisible();
  const records = parse(await readFile((await download.path())!), { columns: true }) as Record<
    string,
    string
  >[];
  expect(records).toHaveLength(expected);
  expect(records.filter((r) => r.action === "client.updated")).toHaveLength(EDITS);
  expect(records.map((r) => `${r.action}:${r.target_id || r.actor_email}`)).toEqual([
    `auth.sign_in:${person.email}`,
    ...Array.from({ length: EDITS }, () => `client.updated:${client.c_id}`),
    `client.created:${client.c_id}`,
  ]);
  // The same rows as the API lists for the filter, in the same order.
  const listed = await page.request.get(
    `/api/admin/audit?person=${encodeURIComponent(person.email)}&limit=500`,
  );
  expect(records.map((r) => Number(r.id))).toEqual(
    ((await listed.json()) as { id: number }[]).map((e) => e.id),
  );
});

test("a bad filter in the address shows the API's reason, and Clear shows the whole log again", async ({
  page,
  login,
}) => {
  await login(accounts.admin);
  await page.goto("/admin/audit?person=not-an-email");
  await expect(page.getByRole("alert").filter({ hasText: "person must be an email address" })).toBeVisible();
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page.getByRole("table").locator("tbody > tr:not([hidden])").first()).toBeVisible();
});
