import type { Browser, Page } from "@playwright/test";

import { addClientViaApi, newPerson } from "./support/admin-helpers.ts";
import { accounts, expect, postAuth, test, type TAccount } from "./support/fixtures.ts";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** Another browser of the same person: its own context (cookies), its own user agent, signed in. */
async function signInElsewhere(
  browser: Browser,
  account: Pick<TAccount, "email" | "password">,
  userAgent: string,
) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  const response = await postAuth(page.request, "/sign-in/email", account);
  expect(response.status(), await response.text()).toBe(200);
  return page;
}

/** What a page's session may do right now: the portal API answers 200, or 401 once the session has ended. */
const apiStatus = async (page: Page) => (await page.request.get("/api/me/sessions")).status();

test("a person signs out their other sessions from the profile page and those are refused at once", async ({
  page,
  login,
  createAccount,
  browser,
}) => {
  const account = await createAccount();
  await login(account);
  const phone = await signInElsewhere(browser, account, IPHONE);
  const laptop = await signInElsewhere(browser, account, FIREFOX_WINDOWS);

  await page.goto("/profile");
  const sessions = page.getByRole("list", { name: "Your sessions" });
  // Four: confirming the address signed the person in too (in createAccount's own context).
  await expect(sessions.getByRole("listitem")).toHaveCount(4);
  const here = sessions.getByRole("listitem").filter({ hasText: "This device" });
  await expect(here).toHaveCount(1);
  await expect(here).toContainText("Chrome");
  await expect(here.getByRole("button", { name: /Sign out/ })).toHaveCount(0);
  const phoneRow = sessions.getByRole("listitem").filter({ hasText: "Safari 18 on iOS 18.1" });
  await expect(phoneRow).toContainText("127.0.0.1");
  await expect(phoneRow).toContainText("Last active");

  await test.step("the phone's own profile calls itself This device", async () => {
    await phone.goto("/profile");
    await expect(
      phone
        .getByRole("list", { name: "Your sessions" })
        .getByRole("listitem")
        .filter({ hasText: "This device" }),
    ).toContainText("Safari 18 on iOS 18.1");
  });

  await test.step("Sign out ends the phone's session, which is refused on its very next request", async () => {
    await phoneRow.getByRole("button", { name: /^Sign out Safari 18 on iOS 18\.1/ }).click();
    await expect(page.getByRole("status")).toHaveText("Signed out of that session.");
    await expect(sessions.getByRole("listitem")).toHaveCount(3);
    await expect(phoneRow).toHaveCount(0);
    expect(await apiStatus(phone)).toBe(401);
    // The phone's open profile page is refused at its next action, and shows sign-in.
    await phone.getByRole("button", { name: "Sign out of all other sessions" }).click();
    await expect(phone).toHaveURL("/login");
    await expect(phone.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    expect(await apiStatus(laptop)).toBe(200);
  });

  await test.step("Sign out of all other sessions ends the laptop's (and the confirmation's) and keeps this one", async () => {
    expect(await apiStatus(laptop)).toBe(200);
    await page.getByRole("button", { name: "Sign out of all other sessions" }).click();
    await expect(page.getByRole("status")).toHaveText("Signed out of 2 other sessions.");
    await expect(sessions.getByRole("listitem")).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Sign out of all other sessions" })).toHaveCount(0);
    expect(await apiStatus(laptop)).toBe(401);
    expect(await apiStatus(page)).toBe(200);
  });

  await phone.context().close();
  await laptop.context().close();
});

test("an admin signs a client out everywhere from Edit Client; the client's sessions are refused at once", async ({
  page,
  login,
  browser,
}) => {
  await login(accounts.admin);
  const person = newPerson("client");
  await addClientViaApi(page, person, []);
  const first = await signInElsewhere(browser, person, IPHONE);
  const second = await signInElsewhere(browser, person, FIREFOX_WINDOWS);
  expect(await apiStatus(first)).toBe(200);
  expect(await apiStatus(second)).toBe(200);

  await page.goto(`/admin/edit-client?id=${person.businessId}`);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Sign out everywhere?" });
  await expect(dialog).toContainText(`${person.firstName} ${person.lastName} is signed out on every device`);
  await dialog.getByRole("button", { name: "Yes, Sign out" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status")).toHaveText("Signed out of 2 sessions. They must sign in again.");

  expect(await apiStatus(first)).toBe(401);
  expect(await apiStatus(second)).toBe(401);
  // The admin is still signed in, and the client can sign in again.
  expect(await apiStatus(page)).toBe(200);
  const again = await signInElsewhere(browser, person, IPHONE);
  expect(await apiStatus(again)).toBe(200);

  for (const other of [first, second, again]) await other.context().close();
});
