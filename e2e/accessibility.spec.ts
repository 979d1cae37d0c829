import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { DEMO_WORKBOOKS } from "../packages/contracts/src/demo.ts";
import { addClientViaApi, demoWorkbook, newPerson } from "./support/admin-helpers.ts";
import { BASE_URL } from "./support/env.ts";
import { accounts, expect, postAuth, test } from "./support/fixtures.ts";
import { waitForMail } from "./support/mailbox.ts";
import { waitForAnalyticsServer } from "./support/workbooks-helpers.ts";

/**
 * axe (WCAG 2.x A and AA rules) on the portal's screens. The analytics frame's content is the analytics
 * server's page, checked on its own; here it is left out.
 */
async function expectNoViolations(page: Page, url: string, ready: string, settled?: () => Promise<void>) {
  await page.goto(url);
  await expect(page.getByRole("heading", { level: 1, name: ready }).first()).toBeVisible();
  await settled?.();
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .exclude("iframe")
    .analyze();
  const found = results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
  expect(found, url).toEqual([]);
}

test("the admin screens have no axe violations", async ({ page, login }) => {
  await waitForAnalyticsServer();
  await login(accounts.admin);
  for (const [url, heading] of [
    ["/admin/client-list", "Clients"],
    ["/admin/employee-list", "Employees"],
    ["/admin/workbook-list", "Workbooks"],
    ["/admin/sync", "BI sync"],
    ["/admin/audit", "Audit log"],
    ["/admin/settings", "Firm settings"],
    ["/admin/households", "Households"],
    ["/admin/add-client", "Add Client"],
    ["/admin/edit-client?id=CL-1001", "Edit Client"],
    ["/admin/view-as-client?id=CL-1001", "Viewing as Olivia Bennett (CL-1001)"],
  ] as const) {
    await expectNoViolations(page, url, heading);
  }
});

test("the profile page, with its sessions, has no axe violations", async ({ page, login, createAccount }) => {
  const account = await createAccount();
  await login(account);
  // Another session (besides the one confirming the address made), so rows have their Sign out buttons.
  expect((await postAuth(page.request, "/sign-in/email", account)).status()).toBe(200);
  await expectNoViolations(page, "/profile", "Your profile", async () => {
    const sessions = page.getByRole("list", { name: "Your sessions" });
    await expect(sessions.getByRole("listitem")).toHaveCount(3);
    await expect(sessions.getByRole("button", { name: /^Sign out / })).toHaveCount(2);
  });
});

test("a client's circle has no axe violations: the household form, People with access, the delegate's invitation", async ({
  page,
  login,
  browser,
}) => {
  await waitForAnalyticsServer();
  await login(accounts.admin);
  const owner = newPerson("client");
  const workbook = await demoWorkbook(page, DEMO_WORKBOOKS[1].workbookName);
  await addClientViaApi(page, owner, [workbook.id]);
  await page.goto("/admin/households");
  await page.getByRole("button", { name: "Add household" }).click();
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(
    results.violations.map((v) => v.id),
    "household form",
  ).toEqual([]);

  const client = await (await browser.newContext()).newPage();
  expect((await postAuth(client.request, "/sign-in/email", owner)).status()).toBe(200);
  const delegateEmail = `e2e-axe-delegate-${owner.businessId.toLowerCase()}@example.com`;
  const invited = await client.request.post("/api/me/delegates", {
    data: { email: delegateEmail, name: "Avery Delegate", expiresAt: "2030-01-31" },
    headers: { Origin: BASE_URL },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  await expectNoViolations(client, "/profile", "Your profile", async () => {
    const card = client.getByRole("region", { name: "People with access" });
    await expect(card.getByRole("listitem").filter({ hasText: delegateEmail })).toBeVisible();
    await card.getByRole("button", { name: "Invite someone" }).click();
    await card.getByRole("radio", { name: /Only the workbooks chosen below/ }).check();
  });

  const link = (await waitForMail(delegateEmail)).text.match(
    /https?:\/\/\S+\/invitation\?token=[\w-]{43}/,
  )![0];
  const visitor = await (await browser.newContext()).newPage();
  await expectNoViolations(visitor, link, "Welcome, Avery");
  await client.context().close();
  await visitor.context().close();
});

test("the sign-in page has no axe violations", async ({ page }) => {
  await expectNoViolations(page, "/login", "Welcome Back");
});

test("the page of a new-device alert's This wasn't me link has no axe violations", async ({ page }) => {
  // A well-formed token (the page checks it only when the button is pressed).
  await expectNoViolations(page, `/not-me?token=${"a".repeat(43)}`, "Not you?");
});

/** WCAG contrast ratio of two CSS colours as the browser computes them (`rgb(...)`). */
function contrast(foreground: string, background: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [hi, lo] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

test("the multi-select's placeholder and summary have at least 4.5:1 contrast", async ({ page, login }) => {
  await login(accounts.admin);
  await page.goto("/admin/add-employee");
  const assign = page.getByRole("button", { name: /^Assign Clients/ });
  await expect(assign).toHaveText("Select clients...");
  const summary = await assign.locator("span", { hasText: "Select clients..." }).evaluate((el) => ({
    color: getComputedStyle(el).color,
    background: getComputedStyle(el.closest("button") ?? el).backgroundColor,
  }));
  expect(contrast(summary.color, summary.background)).toBeGreaterThanOrEqual(4.5);

  await assign.click();
  const search = page.getByRole("combobox", { name: "Search clients" });
  await expect(search).toHaveAttribute("placeholder", "Search clients");
  const placeholder = await search.evaluate((el) => ({
    color: getComputedStyle(el, "::placeholder").color,
    text: getComputedStyle(el).color,
    background: getComputedStyle(el).backgroundColor,
  }));
  // The placeholder's own colour was read (it is lighter than the typed text), not the input's.
  expect(placeholder.color).not.toBe(placeholder.text);
  expect(contrast(placeholder.color, placeholder.background)).toBeGreaterThanOrEqual(4.5);
});

test("the invitation page (D55) has no axe violations, with a link that works and one that does not", async ({
  page,
  login,
  browser,
}) => {
  await login(accounts.admin);
  const email = `e2e-axe-invite-${Date.now()}@example.com`;
  const invited = await page.request.post("/api/admin/addclient", {
    data: {
      clientId: `CL-AXE-${Date.now()}`,
      firstName: "Ines",
      lastName: "Axe",
      email,
      privilege: "View",
      invite: true,
    },
    headers: { Origin: BASE_URL },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const link = (await waitForMail(email)).text.match(/https?:\/\/\S+\/invitation\?token=\S+/)![0];
  const visitor = await (await browser.newContext()).newPage();
  await expectNoViolations(visitor, link, "Welcome, Ines", async () => {
    await expect(visitor.getByLabel("Choose a password")).toBeVisible();
  });
  await expectNoViolations(visitor, "/invitation?token=not-a-token", "Your invitation", async () => {
    await expect(visitor.getByRole("alert")).toBeVisible();
  });
  await expectNoViolations(page, "/admin/add-employee", "Add Employee", async () => {
    await expect(page.getByRole("radio", { name: "Send an invitation" })).toBeChecked();
  });
});
