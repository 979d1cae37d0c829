import { DEFAULT_BRANDING } from "@portal/contracts";
import type { Page } from "@playwright/test";

import { BASE_URL } from "./support/env.ts";
import { accounts, expect, submitSignIn, test } from "./support/fixtures.ts";
import { waitForMail } from "./support/mailbox.ts";

/**
 * Firm branding (/admin/settings): a new name, colour and logo appear on /login, in both shells and in the next
 * email. The settings are the whole portal's: other journeys do not depend on the firm's name or colour, and
 * this one puts the demo firm back at its end.
 */
const FIRM = "Northwind Advisors";
const COLOUR = "#1f4e8c";
const COLOUR_RGB = "rgb(31, 78, 140)";
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#f2b705"/><path d="M10 30V10l20 20V10" stroke="#1f4e8c" stroke-width="4" fill="none"/></svg>`;
const SCRIPTED = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><script>alert(1)</script><rect width="4" height="4"/></svg>`;

async function primaryButtonColour(page: Page, name: string) {
  return page
    .getByRole("button", { name, exact: true })
    .evaluate((button) => getComputedStyle(button).backgroundColor);
}

test("an admin's new logo and colour appear on /login, in both shells and in the next email", async ({
  page,
  login,
  browser,
  createAccount,
}) => {
  test.setTimeout(120_000);
  await login(accounts.admin);
  await page.goto("/admin/client-list");
  await page
    .getByRole("navigation", { name: "Administration" })
    .getByRole("link", { name: "Firm settings" })
    .click();
  await expect(page).toHaveURL("/admin/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Firm settings" })).toBeVisible();
  await expect(page.getByLabel("Firm name")).toHaveValue(DEFAULT_BRANDING.firmName);

  // A pale colour is refused with its measured contrast; nothing is saved.
  await page.getByLabel("Firm name").fill(FIRM);
  await page.getByLabel("Primary colour", { exact: true }).fill("#c8c8c8");
  await page.getByLabel("Support email").fill("help@northwind.example");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(
    page.getByText(/Primary colour #c8c8c8 has a contrast of 1\.\d\d:1 against white/),
  ).toBeVisible();
  await expect(page.getByText("✅ Settings saved.")).toHaveCount(0);

  await page.getByLabel("Primary colour", { exact: true }).fill(COLOUR);
  await expect(page.getByTestId("contrast-preview")).toContainText("meets WCAG AA");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("✅ Settings saved.")).toBeVisible();

  // A logo with script is refused and changes nothing; a clean SVG is taken.
  const upload = page.getByLabel("New logo");
  await upload.setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from(SCRIPTED) });
  await page.getByRole("button", { name: "Upload logo" }).click();
  await expect(page.getByText(/contains script \(<script>\)/)).toBeVisible();
  await upload.setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from(LOGO) });
  await page.getByRole("button", { name: "Upload logo" }).click();
  await expect(page.getByText("✅ Logo uploaded.")).toBeVisible();

  // The admin shell at once: name, logo, colour.
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await expect(sidebar).toContainText("Northwind");
  await expect(sidebar).toContainText("Advisors");
  const logo = sidebar.getByTestId("firm-logo");
  await expect(logo).toHaveAttribute("src", /^\/api\/branding\/logo\?v=[0-9a-f]{16}$/);
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  expect(await primaryButtonColour(page, "Save settings")).toBe(COLOUR_RGB);
  const logoUrl = (await logo.getAttribute("src"))!;

  // The sign-in page, for someone not signed in.
  const visitor = await browser.newContext({ baseURL: BASE_URL });
  const signInPage = await visitor.newPage();
  await signInPage.goto("/login");
  await expect(signInPage.getByRole("link", { name: `${FIRM}: sign-in` })).toBeVisible();
  await expect(signInPage.getByTestId("firm-logo")).toHaveAttribute("src", logoUrl);
  expect(await primaryButtonColour(signInPage, "Sign in")).toBe(COLOUR_RGB);

  // The client's shell after signing in there.
  await submitSignIn(signInPage, accounts.client);
  await expect(signInPage).toHaveURL("/");
  const clientSidebar = signInPage.getByRole("complementary", { name: "Sidebar" });
  await expect(clientSidebar).toContainText("Northwind");
  await expect(clientSidebar.getByTestId("firm-logo")).toHaveAttribute("src", logoUrl);
  await visitor.close();

  // The next email: a password reset asked for on /login.
  const account = await createAccount();
  const resetPage = await browser.newPage({ baseURL: BASE_URL });
  await resetPage.goto("/login");
  await resetPage.getByLabel("Email").fill(account.email);
  await resetPage.getByRole("button", { name: "Reset Password" }).click();
  await expect(resetPage.getByRole("status")).toHaveText("Password reset email sent. Check your inbox.");
  await resetPage.close();
  const mail = await waitForMail(account.email, 2);
  expect(mail.subject).toBe(`Reset your ${FIRM} portal password`);
  expect(mail.text).toContain("Questions? Write to help@northwind.example.");
  expect(mail.html).toContain(`background:${COLOUR};color:#ffffff`);
  expect(mail.html).toContain(FIRM);

  // Back to the demo firm, through the screen.
  await page.getByLabel("Firm name").fill(DEFAULT_BRANDING.firmName);
  await page.getByLabel("Primary colour", { exact: true }).fill(DEFAULT_BRANDING.primaryColour);
  await page.getByLabel("Support email").fill(DEFAULT_BRANDING.supportEmail);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("✅ Settings saved.")).toBeVisible();
  await page.getByRole("button", { name: "Use the built-in mark" }).click();
  await expect(page.getByText("✅ Logo removed.")).toBeVisible();
  await expect(sidebar).toContainText("Meridian");
});
