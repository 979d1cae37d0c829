import { BASE_URL, E2E_NEW_ADMIN } from "./support/env.ts";
import {
  accounts,
  expect,
  postAuth,
  secretOfKey,
  submitSecondStep,
  submitSignIn,
  test,
  totpCode,
  wrongTotpCode as wrongCode,
} from "./support/fixtures.ts";

test.describe("second step of the sign-in (two-step verification)", () => {
  test("at /admin-login a wrong code and a used code are refused, the right one lands on /admin", async ({
    page,
    playwright,
  }) => {
    // Each code works once, so this test may wait for the authenticator's next code.
    test.slow();
    const secret = accounts.admin.totpSecret;
    await page.goto("/admin-login");
    await submitSignIn(page, accounts.admin);
    await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Use a backup code instead" })).toBeVisible();
    // No session yet: the password alone does not sign in.
    expect(await (await page.request.get("/api/auth/get-session")).json()).toBeNull();

    await submitSecondStep(page, await wrongCode(secret));
    await expect(page.getByRole("alert")).toHaveText(
      "That code is not right. Check your authenticator app and try again.",
    );
    await expect(page).toHaveURL("/admin-login");

    await page.getByLabel("Authentication code").fill("12");
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await expect(page.getByText("Enter the 6 digits from your authenticator app.")).toBeVisible();

    // A code already used for another sign-in is refused with the reason; this sign-in step stays open.
    const used = await totpCode(secret);
    const elsewhere = await playwright.request.newContext({ baseURL: BASE_URL });
    expect((await postAuth(elsewhere, "/sign-in/email", accounts.admin)).status()).toBe(200);
    expect((await postAuth(elsewhere, "/two-factor/verify-totp", { code: used })).status()).toBe(200);
    await elsewhere.dispose();
    await submitSecondStep(page, used);
    await expect(page.getByRole("alert")).toHaveText(
      "This code has already been used. Wait for the next code in your authenticator app.",
    );
    await expect(page).toHaveURL("/admin-login");

    await submitSecondStep(page, await totpCode(secret));
    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("navigation", { name: "Administration" })).toBeVisible();
  });

  test("at /login the backup-code toggle and Back to sign-in work, and a bad backup code is explained", async ({
    page,
  }) => {
    test.slow(); // may wait for the authenticator's next code (each works once)
    await page.goto("/login");
    await submitSignIn(page, accounts.admin);
    await expect(page.getByText("Enter the 6-digit code from your authenticator app.")).toBeVisible();
    // Only the code form shows during the second step.
    await expect(page.getByRole("tab", { name: "Create Account" })).toBeHidden();

    await page.getByRole("button", { name: "Use a backup code instead" }).click();
    await page.getByLabel("Backup code").fill("abcde-fghij");
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "That backup code is not valid or has already been used.",
    );

    await page.getByRole("button", { name: "Use your authenticator app instead" }).click();
    await page.getByRole("button", { name: "Back to sign-in" }).click();
    await expect(page.getByLabel("Email")).toBeVisible();

    // Signing in again from /login continues like any admin sign-in there: to /admin.
    await submitSignIn(page, accounts.admin);
    await submitSecondStep(page, await totpCode(accounts.admin.totpSecret));
    await expect(page).toHaveURL("/admin");
  });

  test("an expired second step sends the person back to the password with the reason", async ({ page }) => {
    await page.goto("/admin-login");
    await submitSignIn(page, accounts.admin);
    await expect(page.getByLabel("Authentication code")).toBeVisible();
    // The pending step lives in a short-lived cookie; without it the step has expired.
    const cookies = await page.context().cookies();
    await page.context().clearCookies();
    await page.context().addCookies(cookies.filter((c) => !c.name.endsWith("two_factor")));
    // Any code: the step itself is gone (and a right one would be spent for nothing).
    await submitSecondStep(page, await wrongCode(accounts.admin.totpSecret));
    await expect(page.getByRole("alert")).toHaveText("This sign-in step has expired. Please sign in again.");
    await expect(page.getByLabel("Email")).toBeVisible();
  });
});

test("a new admin sets up two-step verification on the first sign-in, then works in /admin", async ({
  page,
}) => {
  await page.goto("/admin-login");
  await submitSignIn(page, E2E_NEW_ADMIN);
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { name: "Set up two-step verification" })).toBeVisible();
  // The admin pages and the admin API wait for the enrolment: the shell names the step and offers no pages,
  // but still signs out.
  const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
  const adminLinks = page.getByRole("link", { name: /^(Clients|Employees|Workbooks)$/ });
  await expect(breadcrumb).toHaveText("Set up two-step verification");
  await expect(page).toHaveTitle("Set up two-step verification · Meridian Client Portal");
  await expect(page.getByRole("navigation", { name: "Administration" })).toBeHidden();
  await expect(adminLinks).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeHidden();
  await page.getByRole("button", { name: "Open account menu" }).click();
  await expect(page.getByRole("menuitem", { name: "Logout" })).toBeVisible();
  await page.keyboard.press("Escape");
  const refused = await page.request.get("/api/admin/clients");
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: "MFA_ENROLLMENT_REQUIRED" });

  // Any admin page shows the same step.
  await page.goto("/admin/employee-list");
  await expect(page.getByRole("heading", { name: "Set up two-step verification" })).toBeVisible();
  await expect(breadcrumb).toHaveText("Set up two-step verification");
  await expect(adminLinks).toHaveCount(0);

  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Enter your password.")).toBeVisible();
  await page.getByLabel("Password").fill("not-the-password-12");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toHaveText("That password is not right.");
  await page.getByLabel("Password").fill(E2E_NEW_ADMIN.password);
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  await expect(breadcrumb).toHaveText("Set up two-step verification");
  await expect(adminLinks).toHaveCount(0);
  const key = (await page.getByLabel("Setup key").textContent()) ?? "";
  expect(key.replace(/\s+/g, "")).toMatch(/^[A-Z2-7]{16,}$/);
  const secret = secretOfKey(key);

  await page.getByLabel("6-digit code").fill(await wrongCode(secret));
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "That code is not right. Check your authenticator app and try again.",
  );
  await page.getByLabel("6-digit code").fill(await totpCode(secret));
  await page.getByRole("button", { name: "Verify", exact: true }).click();

  await expect(page.getByText("Two-step verification is on.")).toBeVisible();
  await expect(page.getByText("They are shown only this once.")).toBeVisible();
  const codes = page.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const firstBackupCode = ((await codes.first().textContent()) ?? "").trim();

  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
  await expect(breadcrumb).toContainText("Clients");
  await expect(page.getByRole("navigation", { name: "Administration" })).toBeVisible();
  await expect(adminLinks).toHaveCount(3);
  expect((await page.request.get("/api/admin/clients")).status()).toBe(200);

  // From now on signing in asks for a code; a backup code works once.
  await page.context().clearCookies();
  await page.goto("/admin-login");
  await submitSignIn(page, E2E_NEW_ADMIN);
  await page.getByRole("button", { name: "Use a backup code instead" }).click();
  await page.getByLabel("Backup code").fill(firstBackupCode);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
});

test("a client turns two-step verification on from the profile, and off again with the password", async ({
  page,
  login,
  createAccount,
}) => {
  const account = await createAccount();
  await login(account);
  await page.goto("/profile");
  const section = page.getByRole("region", { name: "Two-step verification" });
  await expect(section).toContainText("Off:");
  await section.getByRole("button", { name: "Turn on" }).click();
  await section.getByLabel("Password").fill(account.password);
  await section.getByRole("button", { name: "Continue" }).click();
  const key = (await section.getByLabel("Setup key").textContent()) ?? "";
  await section.getByLabel("6-digit code").fill(await totpCode(secretOfKey(key)));
  await section.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(section.getByRole("list", { name: "Backup codes" }).getByRole("listitem")).toHaveCount(10);
  await section.getByRole("button", { name: "Done" }).click();
  await expect(section).toContainText("On: signing in asks for a code");

  await section.getByRole("button", { name: "Turn off" }).click();
  await section.getByRole("button", { name: "Turn off two-step verification" }).click();
  await expect(section.getByText("Enter your password.")).toBeVisible();
  await section.getByLabel("Password").fill(account.password);
  await section.getByRole("button", { name: "Turn off two-step verification" }).click();
  await expect(section.getByRole("status")).toHaveText("Two-step verification is off.");
  await expect(section).toContainText("Off:");
});
