import { existsSync, readFileSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";

import { mailFile } from "./support/env.ts";
import type { TReceivedMail } from "./support/env.ts";
import { expect, postAuth, submitSignIn, test, type TAccount } from "./support/fixtures.ts";
import { resetLinkIn, waitForMail } from "./support/mailbox.ts";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** Every mail the address has received so far, oldest first. */
function mailsTo(address: string): TReceivedMail[] {
  const file = mailFile(address);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TReceivedMail);
}
const isAlert = (mail: TReceivedMail) => mail.subject.startsWith("New sign-in to your");

/** Another browser: its own context (cookies) and user agent, signed in on /login as a person does. */
async function signInOnAnotherBrowser(browser: Browser, account: TAccount, userAgent: string) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  await page.goto("/login");
  await submitSignIn(page, account);
  await expect(page).toHaveURL("/");
  return page;
}

/** What a page's session may do right now: the portal API answers 200, or 401 once the session has ended. */
const apiStatus = async (page: Page) => (await page.request.get("/api/me/sessions")).status();

test("a new browser is told of by email, a known one is not; This wasn't me ends every session and starts a reset", async ({
  page,
  login,
  createAccount,
  browser,
}) => {
  // Mail 1: the address confirmation (createAccount). The first sign-in of the account tells nobody.
  const account = await createAccount();
  await login(account);
  expect(await apiStatus(page)).toBe(200);

  // Mail 2: a second browser signs in.
  const phone = await signInOnAnotherBrowser(browser, account, IPHONE);
  const alert = await waitForMail(account.email, 2);
  expect(alert.subject).toMatch(/^New sign-in to your .+ portal account$/);
  expect(alert.text).toContain("Browser and system: Safari 18 on iOS 18.1");
  expect(alert.text).toContain("IP address: 127.0.0.1");
  expect(alert.text).toMatch(/Time: .+ UTC \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/);
  const link = alert.text.match(/https?:\/\/\S+\/not-me\?token=\S+/)?.[0];
  expect(link, alert.text).toBeTruthy();

  await test.step("the known browsers sign in again and nobody is told; a third browser is", async () => {
    await login(account);
    const again = await postAuth(phone.request, "/sign-in/email", {
      email: account.email,
      password: account.password,
    });
    expect(again.status(), await again.text()).toBe(200);
    // Mail 3: the third browser's; by the time it has come, the known browsers' sign-ins sent none.
    const laptop = await signInOnAnotherBrowser(browser, account, FIREFOX_WINDOWS);
    expect((await waitForMail(account.email, 3)).text).toContain("Firefox 133 on Windows 10");
    expect(mailsTo(account.email).filter(isAlert)).toHaveLength(2);
    await laptop.context().close();
  });

  await test.step("opening the link changes nothing; the button signs the account out everywhere", async () => {
    await phone.goto(link!);
    await expect(phone.getByRole("heading", { level: 1, name: "Not you?" })).toBeVisible();
    await expect(
      phone.getByText(
        "We will sign this account out everywhere and email you a link to choose a new password.",
      ),
    ).toBeVisible();
    expect(await apiStatus(page)).toBe(200);
    expect(await apiStatus(phone)).toBe(200);

    await phone.getByRole("button", { name: "Sign out everywhere and reset my password" }).click();
    await expect(phone.getByRole("status")).toHaveText(
      "Done. Every session of this account has ended. Check your email for a link to choose a new password.",
    );
    expect(await apiStatus(page)).toBe(401);
    expect(await apiStatus(phone)).toBe(401);
  });

  await test.step("the link works once", async () => {
    await phone.goto(link!);
    await phone.getByRole("button", { name: "Sign out everywhere and reset my password" }).click();
    await expect(phone.getByRole("alert")).toContainText("This link can no longer be used");
    await expect(phone.getByRole("link", { name: "Go to sign-in" })).toBeVisible();
  });

  await test.step("mail 4 is the usual reset link, which sets a new password once", async () => {
    const reset = await waitForMail(account.email, 4);
    expect(reset.subject).toMatch(/^Reset your .+ portal password$/);
    const resetLink = resetLinkIn(reset);
    await phone.goto(resetLink);
    await expect(phone).toHaveURL(/\/reset-password\?token=/);
    const newPassword = `${account.password}-after-not-me`;
    await phone.getByLabel("New password", { exact: true }).fill(newPassword);
    await phone.getByLabel("Confirm new password").fill(newPassword);
    await phone.getByRole("button", { name: "Set new password" }).click();
    await expect(phone.getByRole("status")).toContainText("Your password has been changed.");

    await phone.goto(resetLink);
    await expect(phone).toHaveURL(/\/reset-password\?error=INVALID_TOKEN/);

    await page.goto("/login");
    await submitSignIn(page, { email: account.email, password: newPassword });
    await expect(page).toHaveURL("/");
  });

  await phone.context().close();
});

test("a This wasn't me link that is cut short says so and offers the sign-in page", async ({ page }) => {
  await page.goto("/not-me?token=cut-short");
  await expect(page.getByRole("heading", { level: 1, name: "Not you?" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("This link is not complete.");
  await expect(page.getByRole("button", { name: "Sign out everywhere and reset my password" })).toHaveCount(
    0,
  );
  await page.getByRole("link", { name: "Go to sign-in" }).click();
  await expect(page).toHaveURL("/login");
});
