import type { Browser, Page } from "@playwright/test";

import { DEMO_WORKBOOKS } from "../packages/contracts/src/demo.ts";
import { addClientViaApi, demoWorkbook, newPerson, type TNewPerson } from "./support/admin-helpers.ts";
import { BASE_URL } from "./support/env.ts";
import { accounts, expect, postAuth, test } from "./support/fixtures.ts";
import { waitForMail } from "./support/mailbox.ts";
import type { TReceivedMail } from "./support/env.ts";
import {
  expectWorkbookLoaded,
  sidebarWorkbooks,
  waitForAnalyticsServer,
  workbookFrame,
} from "./support/workbooks-helpers.ts";

// A client's circle (issue 23): delegates with their own sign-in, households, and the switcher.

const [portfolio, taxCenter] = DEMO_WORKBOOKS;

function invitationLinkIn(mail: TReceivedMail): string {
  const link = mail.text.match(/https?:\/\/\S+\/invitation\?token=[A-Za-z0-9_-]{43}/)?.[0];
  if (!link) throw new Error(`No invitation link in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}

/** A fresh client with the demo Portfolio Overview and Tax Center, added by the admin page's session. */
async function freshClient(admin: Page): Promise<TNewPerson & { cId: number }> {
  const person = newPerson("client");
  const ids = [
    (await demoWorkbook(admin, portfolio.workbookName)).id,
    (await demoWorkbook(admin, taxCenter.workbookName)).id,
  ];
  const { c_id } = await addClientViaApi(admin, person, ids);
  return { ...person, cId: c_id };
}

/** A page of a new browser context, signed in through the API. */
async function signedIn(browser: Browser, person: { email: string; password: string }, phone = false) {
  const context = await browser.newContext(phone ? { viewport: { width: 390, height: 844 } } : {});
  const page = await context.newPage();
  const response = await postAuth(page.request, "/sign-in/email", person);
  expect(response.status(), await response.text()).toBe(200);
  return page;
}

test("a client invites their CPA, who views the one shared workbook and nothing else until the client revokes", async ({
  page,
  login,
  browser,
}) => {
  await waitForAnalyticsServer();
  await login(accounts.admin);
  const client = await freshClient(page);
  const cpa = { name: "Casey Moreno", email: `e2e-cpa-${client.businessId.toLowerCase()}@example.com` };
  const clientPage = await signedIn(browser, client);

  await test.step("the client invites the CPA to the Tax Center only, from the profile", async () => {
    await clientPage.goto("/profile");
    const card = clientPage.getByRole("region", { name: "People with access" });
    await card.getByRole("button", { name: "Invite someone" }).click();
    await card.getByLabel("Name").fill(cpa.name);
    await card.getByLabel("Email").fill(cpa.email);
    await card.getByRole("radio", { name: /Only the workbooks chosen below/ }).check();
    await card.getByRole("checkbox", { name: "Tax Center" }).check();
    await card.getByRole("button", { name: "Send invitation" }).click();
    await expect(card.getByText(`Invitation sent to ${cpa.name}.`)).toBeVisible();
    const item = card.getByRole("listitem").filter({ hasText: cpa.email });
    await expect(item).toContainText("Status: Invited");
    await expect(item.getByText("Tax Center")).toBeVisible();
  });

  const cpaPassword = `ledger-${Date.now()}-cpa-passphrase`;
  const cpaContext = await browser.newContext();
  const cpaPage = await cpaContext.newPage();
  await test.step("the CPA accepts with their own password and sees only the shared workbook", async () => {
    await cpaPage.goto(invitationLinkIn(await waitForMail(cpa.email)));
    await expect(
      cpaPage.getByText(`${client.firstName} ${client.lastName} invited you to view their workbooks.`),
    ).toBeVisible();
    await cpaPage.getByLabel("Choose a password").fill(cpaPassword);
    await cpaPage.getByLabel("Confirm password").fill(cpaPassword);
    await cpaPage.getByRole("button", { name: "Set password and sign in" }).click();
    await expect(cpaPage).toHaveURL(/\/(workbooks\/.*)?(\?client=\d+)?$/);
    await expect(sidebarWorkbooks(cpaPage)).toHaveCount(1);
    await expect(sidebarWorkbooks(cpaPage).first()).toHaveAccessibleName("Tax Center");
    await expectWorkbookLoaded(cpaPage, "Tax Center");
  });

  await test.step("the portal refuses the CPA the client's other workbook", async () => {
    const refused = await cpaPage.request.post("/api/sigma/provision-and-embed", {
      data: { workbookId: portfolio.workbookName, clientId: client.cId },
      headers: { Origin: BASE_URL },
    });
    expect(refused.status()).toBe(404);
    await cpaPage.goto(`/workbooks/${encodeURIComponent(portfolio.workbookName)}?client=${client.cId}`);
    await expect(sidebarWorkbooks(cpaPage)).toHaveCount(1);
    await expect(workbookFrame(cpaPage, "Portfolio Overview")).toHaveCount(0);
  });

  await test.step("the client sees the CPA as active, then revokes", async () => {
    await clientPage.reload();
    const card = clientPage.getByRole("region", { name: "People with access" });
    const item = card.getByRole("listitem").filter({ hasText: cpa.email });
    await expect(item).toContainText("Status: Active");
    await item.getByRole("button", { name: `Revoke access for ${cpa.name}` }).click();
    await clientPage
      .getByRole("alertdialog", { name: "Revoke access?" })
      .getByRole("button", { name: "Revoke" })
      .click();
    await expect(card.getByRole("listitem").filter({ hasText: cpa.email })).toHaveCount(0);
  });

  await test.step("the CPA is refused from then on", async () => {
    const refused = await cpaPage.request.post("/api/sigma/provision-and-embed", {
      data: { workbookId: taxCenter.workbookName, clientId: client.cId },
      headers: { Origin: BASE_URL },
    });
    expect(refused.status()).toBe(404);
    await cpaPage.goto(`/?client=${client.cId}`);
    await expect(
      cpaPage.getByRole("heading", {
        level: 1,
        name: "You no longer have access to this client's workbooks.",
      }),
    ).toBeVisible();
    await expect(workbookFrame(cpaPage, "Tax Center")).toHaveCount(0);
  });
  await cpaContext.close();
  await clientPage.context().close();
});

test("an admin builds a household with the combined view; a member's workbook then lists every member", async ({
  page,
  login,
  browser,
}) => {
  await waitForAnalyticsServer();
  await login(accounts.admin);
  const first = await freshClient(page);
  const second = await freshClient(page);
  const name = `Hartley household ${first.businessId}`;

  await page.goto("/admin/households");
  await page.getByRole("button", { name: "Add household" }).click();
  await page.getByLabel("Household name").fill(name);
  for (const member of [first, second]) {
    await page.getByRole("button", { name: /^Members/ }).click();
    await page.getByRole("combobox", { name: /Search/ }).fill(member.businessId);
    await page.getByRole("option", { name: new RegExp(member.businessId) }).click();
    await page.keyboard.press("Escape");
  }
  await page.getByRole("switch", { name: /Combined view/ }).click();
  await page.getByRole("button", { name: "Add household", exact: true }).last().click();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByText(first.lastName)).toBeVisible();
  await expect(row.getByText(second.lastName)).toBeVisible();

  const member = await signedIn(browser, first);
  await member.goto("/");
  await expectWorkbookLoaded(member, "Portfolio Overview");
  const clientOptions = workbookFrame(member, "Portfolio Overview")
    .contentFrame()
    .locator('select[data-control-id="Client"] option');
  // The Account control lists clients by their id (random here), so the expected order is sorted too.
  const memberIds = [first.businessId, second.businessId].sort();
  await expect(clientOptions).toHaveText(["All clients", ...memberIds.map((id) => new RegExp(id))]);
  await member.context().close();
});

test("on a phone, someone who views two clients switches between them from the menu", async ({
  page,
  login,
  browser,
}) => {
  await waitForAnalyticsServer();
  await login(accounts.admin);
  const owner = await freshClient(page);
  const viewer = await freshClient(page);

  // The owner shares the Tax Center with a person who is a client themselves; they accept with no new password.
  const ownerPage = await signedIn(browser, owner);
  const invited = await ownerPage.request.post("/api/me/delegates", {
    data: {
      email: viewer.email,
      name: `${viewer.firstName} ${viewer.lastName}`,
      workbookIds: [(await demoWorkbook(page, taxCenter.workbookName)).id],
    },
    headers: { Origin: BASE_URL },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const phone = await signedIn(browser, viewer, true);
  await phone.goto(invitationLinkIn(await waitForMail(viewer.email, 1)));
  await expect(phone.getByLabel("Choose a password")).toHaveCount(0);
  await phone.getByRole("button", { name: "Accept invitation" }).click();
  await expect(phone.getByText(/Invitation accepted/)).toBeVisible();

  await phone.goto("/");
  await expectWorkbookLoaded(phone, "Portfolio Overview");
  // The workbook takes the full width: no sidebar beside it on a phone.
  await expect(phone.getByRole("complementary", { name: "Sidebar" })).toBeHidden();
  await phone.getByRole("button", { name: "Menu", exact: true }).click();
  const menu = phone.getByRole("dialog", { name: "Menu" });
  await menu.getByRole("button", { name: /Viewing:/ }).click();
  await phone
    .getByRole("menuitemradio", { name: new RegExp(`${owner.firstName} ${owner.lastName}`) })
    .click();
  await expect(phone).toHaveURL(new RegExp(`\\?client=${owner.cId}$`));
  await expect(menu).toBeHidden();
  await expectWorkbookLoaded(phone, "Tax Center");
  await phone.getByRole("button", { name: "Menu", exact: true }).click();
  await expect(menu.getByRole("button", { name: /Viewing:/ })).toContainText(
    `${owner.firstName} ${owner.lastName}`,
  );
  await expect(menu.getByRole("navigation", { name: "Workbooks" }).getByRole("link")).toHaveCount(1);
  await phone.context().close();
  await ownerPage.context().close();
});
