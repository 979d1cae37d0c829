import type { Page } from "@playwright/test";

import { DEMO_WORKBOOKS } from "../packages/contracts/src/demo.ts";
import { BASE_URL } from "./support/env.ts";
import { accounts, expect, test } from "./support/fixtures.ts";
import { addClientViaApi, demoWorkbook, newPerson, rowWith, searchList } from "./support/admin-helpers.ts";
import { waitForMail } from "./support/mailbox.ts";
import type { TReceivedMail } from "./support/env.ts";
import {
  expectWorkbookLoaded,
  sidebarWorkbooks,
  waitForAnalyticsServer,
} from "./support/workbooks-helpers.ts";

/** The invitation link in an invitation mail (from the real SMTP test server). */
function invitationLinkIn(mail: TReceivedMail): string {
  const link = mail.text.match(/https?:\/\/\S+\/invitation\?token=\S+/)?.[0];
  if (!link) throw new Error(`No invitation link in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}

/** Adds a client with "Send an invitation" through the admin API (the page's admin session). */
async function inviteClientViaApi(page: Page, person: ReturnType<typeof newPerson>, workbookIds: number[]) {
  const response = await page.request.post("/api/admin/addclient", {
    data: {
      clientId: person.businessId,
      firstName: person.firstName,
      lastName: person.lastName,
      email: person.email,
      role: "client",
      privilege: "View",
      workbookIds,
      invite: true,
    },
    headers: { Origin: BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test("an admin invites a client, who sets a password from the emailed link, signs in and sees their workbooks; the link works once", async ({
  page,
  login,
  browser,
}) => {
  const client = newPerson("client");
  await waitForAnalyticsServer();
  await login(accounts.admin);
  const portfolio = await demoWorkbook(page, DEMO_WORKBOOKS[0].workbookName);

  await test.step("Add Client sends an invitation by default", async () => {
    await page.goto("/admin/add-client");
    await expect(page.getByRole("radio", { name: "Send an invitation" })).toBeChecked();
    await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
    await page.getByLabel("Client ID").fill(client.businessId);
    await page.getByLabel("First Name").fill(client.firstName);
    await page.getByLabel("Last Name").fill(client.lastName);
    await page.getByLabel("Email").fill(client.email);
    await page.getByLabel("Privilege").selectOption("View");
    await page.getByRole("button", { name: /^Workbooks \(optional\)/ }).click();
    await page.getByRole("option", { name: /Portfolio Overview/ }).click();
    await page.keyboard.press("Escape");
    const added = page.waitForRequest("**/api/admin/addclient");
    await page.getByRole("button", { name: "Register Client" }).click();
    const sent = (await added).postDataJSON() as Record<string, unknown>;
    expect(sent).toMatchObject({ invite: true, workbookIds: [portfolio.id] });
    expect(sent).not.toHaveProperty("password");
    await expect(page).toHaveURL("/admin/client-list");
    await expect(
      page.getByRole("status").filter({ hasText: `An invitation was sent to ${client.email}` }),
    ).toBeVisible();
  });

  await test.step("the list shows them as Invited, with Resend and Revoke", async () => {
    await searchList(page, "Search clients", client.businessId);
    const row = rowWith(page, client.businessId);
    await expect(row.getByText("Invited", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: /^Resend/ })).toBeVisible();
    await expect(row.getByRole("button", { name: /^Revoke/ })).toBeVisible();
  });

  const link = invitationLinkIn(await waitForMail(client.email));
  const visitor = await browser.newContext();
  const invited = await visitor.newPage();

  await test.step("the client opens the link, meets the password policy, sets a password and sees their workbooks", async () => {
    await invited.goto(link);
    await expect(
      invited.getByRole("heading", { level: 1, name: `Welcome, ${client.firstName}` }),
    ).toBeVisible();
    await expect(invited.getByLabel("Email")).toHaveValue(client.email);
    await invited.getByLabel("Choose a password").fill("password123");
    await invited.getByLabel("Confirm password").fill("password123");
    await invited.getByRole("button", { name: "Set password and sign in" }).click();
    await expect(invited.getByLabel("Choose a password")).toHaveAccessibleDescription(
      /This password is one of the most commonly used passwords\. Please choose a different one\./,
    );
    await invited.getByLabel("Choose a password").fill(client.password);
    await invited.getByLabel("Confirm password").fill(client.password);
    await invited.getByRole("button", { name: "Set password and sign in" }).click();
    await expect(invited).toHaveURL(/\/(workbooks\/.*)?$/);
    await expect(sidebarWorkbooks(invited)).toHaveCount(1);
    await expect(sidebarWorkbooks(invited).first()).toHaveAccessibleName("Portfolio Overview");
    await expectWorkbookLoaded(invited, "Portfolio Overview");
  });

  await test.step("a second use of the link fails clearly", async () => {
    const again = await (await browser.newContext()).newPage();
    await again.goto(link);
    await expect(again.getByRole("alert")).toContainText(
      "This invitation was already used to set a password.",
    );
    await expect(again.getByLabel("Choose a password")).toHaveCount(0);
    await expect(again.getByRole("link", { name: "Go to sign-in" })).toBeVisible();
  });

  await test.step("the list no longer shows them as invited", async () => {
    await page.reload();
    const row = rowWith(page, client.businessId);
    await expect(row).toHaveCount(1);
    await expect(row.getByText("Invited", { exact: true })).toHaveCount(0);
    await expect(row.getByRole("button", { name: /^Resend/ })).toHaveCount(0);
  });
  await visitor.close();
});

test("a revoked invitation fails clearly; Resend sends a link that works", async ({
  page,
  login,
  browser,
}) => {
  const client = newPerson("client");
  await login(accounts.admin);
  await inviteClientViaApi(page, client, []);
  const first = invitationLinkIn(await waitForMail(client.email));

  await page.goto("/admin/client-list");
  await searchList(page, "Search clients", client.businessId);
  const row = rowWith(page, client.businessId);
  await row.getByRole("button", { name: /^Revoke/ }).click();
  const dialog = page.getByRole("alertdialog", { name: "Revoke this invitation?" });
  await dialog.getByRole("button", { name: "Yes, Revoke" }).click();
  await expect(row.getByText("Invitation revoked", { exact: true })).toBeVisible();
  await expect(row.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(first);
  await expect(visitor.getByRole("alert")).toContainText("This invitation was withdrawn by the firm.");
  await expect(visitor.getByLabel("Choose a password")).toHaveCount(0);

  await row.getByRole("button", { name: /^Resend/ }).click();
  await expect(row.getByRole("status")).toContainText(`A new invitation was sent to ${client.email}.`);
  await expect(row.getByText("Invited", { exact: true })).toBeVisible();
  const second = invitationLinkIn(await waitForMail(client.email, 2));
  expect(second).not.toBe(first);
  await visitor.goto(second);
  await expect(
    visitor.getByRole("heading", { level: 1, name: `Welcome, ${client.firstName}` }),
  ).toBeVisible();

  // Edit Client shows the invitation (no password to mask yet, no reset email to send), with Resend and Revoke.
  await page.goto(`/admin/edit-client?id=${client.businessId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Edit Client" })).toBeVisible();
  await expect(page.getByText("Not chosen yet (invited)")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Resend/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send password reset email" })).toHaveCount(0);
});

test("Edit Client sends a password-reset email", async ({ page, login }) => {
  const client = newPerson("client");
  await login(accounts.admin);
  await addClientViaApi(page, client, []);
  await page.goto(`/admin/edit-client?id=${client.businessId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Edit Client" })).toBeVisible();
  await page.getByRole("button", { name: "Send password reset email" }).click();
  await expect(page.getByRole("status")).toContainText(`A password reset email was sent to ${client.email}.`);
  const mail = await waitForMail(client.email);
  expect(mail.subject).toMatch(/Reset your .* portal password/);
  expect(mail.text).toContain("/api/auth/reset-password/");
});
