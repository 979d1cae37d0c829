import { randomUUID } from "node:crypto";
import { expect } from "@playwright/test";
import type { Page } from "@playwright/test";

import { BASE_URL } from "./env.ts";

/** A short unique token for ids, names and emails of one test run. */
export function uniqueToken(): string {
  return randomUUID().replace(/-/g, "").slice(0, 8);
}

/** A Sigma URL name: `<Name>-<22 letters/digits>`, unique per call. */
export function sigmaWorkbookName(title: string): string {
  const id = `${randomUUID()}${randomUUID()}`.replace(/-/g, "").slice(0, 22);
  return `${title.replace(/\s+/g, "-")}-${id}`;
}

export type TNewPerson = {
  businessId: string;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
};

/** A never-used client or employee (no underscore in the email: Sigma refuses those, DEVIATION D21). */
export function newPerson(kind: "client" | "employee"): TNewPerson {
  const token = uniqueToken();
  return {
    businessId: `${kind === "client" ? "CL" : "EM"}-E2E-${token}`,
    firstName: kind === "client" ? "Quinn" : "Rowan",
    lastName: `${kind === "client" ? "Hartley" : "Okafor"}${token.slice(0, 4)}`,
    email: `e2e-${kind}-${token}@example.com`,
    password: `ledger-${randomUUID()}`,
  };
}

/**
 * Adds a workbook through the admin API with the page's (admin) session, for journeys that need one
 * but test the Add Workbook screen elsewhere. The browser sends Origin itself; this request must too.
 */
export async function addWorkbookViaApi(page: Page, workbookName: string, teamName: string) {
  const response = await page.request.post("/api/admin/addworkbook", {
    data: { workbook_name: workbookName, team_name: teamName },
    headers: { Origin: BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { data: { id: number; workbook_name: string; team_name: string } };
  return body.data;
}

/** Adds a client through the admin API with the page's (admin) session; answers the new record. */
export async function addClientViaApi(page: Page, person: TNewPerson, workbookIds: number[]) {
  const response = await page.request.post("/api/admin/addclient", {
    data: {
      clientId: person.businessId,
      firstName: person.firstName,
      lastName: person.lastName,
      email: person.email,
      password: person.password,
      role: "client",
      privilege: "View",
      workbookIds,
    },
    headers: { Origin: BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { client: { c_id: number } } }).data.client;
}

/** A workbook of the demo catalogue (seeded with DEMO_DATA=on), as the admin API lists it. */
export async function demoWorkbook(page: Page, workbookName: string) {
  const response = await page.request.get(`/api/admin/workbooks?q=${encodeURIComponent(workbookName)}`);
  expect(response.status(), await response.text()).toBe(200);
  const found = (
    (await response.json()) as Array<{ id: number; workbook_name: string; team_name: string }>
  ).find((workbook) => workbook.workbook_name === workbookName);
  if (!found) throw new Error(`The demo workbook ${workbookName} is not in the catalogue.`);
  return found;
}

/** The search box of a back-office list. */
export function listSearch(page: Page, label: "Search clients" | "Search employees" | "Search workbooks") {
  return page.getByRole("searchbox", { name: label });
}

/** The table row (or phone card) that contains `text`. */
export function rowWith(page: Page, text: string) {
  return page.getByRole("row").filter({ hasText: text });
}

/** Types into a list's search box and waits until the list shows the search's result. */
export async function searchList(
  page: Page,
  label: "Search clients" | "Search employees" | "Search workbooks",
  text: string,
) {
  await listSearch(page, label).fill(text);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, "\\+")}`));
}
