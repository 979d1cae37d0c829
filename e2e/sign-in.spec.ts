import { randomUUID } from "node:crypto";

import { E2E_SIGNIN_MAX_FAILURES } from "./support/env.ts";
import {
  accounts,
  expect,
  postAuth,
  submitSecondStep,
  submitSignIn,
  test,
  totpCode,
} from "./support/fixtures.ts";

test.describe("client sign-in at /login", () => {
  test("a client signs in and lands on the user shell", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    await expect(page).toHaveTitle("Sign in · Meridian Client Portal");
    await submitSignIn(page, accounts.client);
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("button", { name: "Open account menu" })).toContainText(accounts.client.name);
  });

  test("a wrong password shows the server's message in red under the form", async ({ page }) => {
    await page.goto("/login");
    await submitSignIn(page, { email: accounts.otherClient.email, password: "not-the-password-123" });
    const alert = page.getByRole("alert");
    await expect(alert).toHaveText(/invalid email or password/i);
    await expect(alert).toHaveClass(/text-red-700/);
    await expect(page).toHaveURL("/login");
  });

  test("an empty form shows field messages and sends nothing", async ({ page }) => {
    let signInRequests = 0;
    page.on("request", (request) => {
      if (request.url().includes("/api/auth/sign-in/email")) signInRequests += 1;
    });
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByText("Enter a valid email address.")).toBeVisible();
    await expect(page.getByText("Password is required.")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    expect(signInRequests).toBe(0);
  });

  test("after too many failures the account is locked and the 429 message is shown", async ({ page }) => {
    const email = `locked-${randomUUID().slice(0, 8)}@example.com`;
    // The allowed failures through the API, the next attempt through the form.
    for (let attempt = 0; attempt < E2E_SIGNIN_MAX_FAILURES; attempt += 1) {
      const response = await postAuth(page.request, "/sign-in/email", {
        email,
        password: "wrong-password-1",
      });
      expect(response.status()).toBe(401);
    }
    await page.goto("/login");
    await submitSignIn(page, { email, password: "wrong-password-1" });
    await expect(page.getByRole("alert")).toContainText("Too many failed sign-in attempts for this account.");
  });

  test("a failed provider sign-in returning to /login?error=… explains it", async ({ page }) => {
    await page.goto("/login?error=access_denied");
    await expect(page.getByRole("alert")).toHaveText("Sign-in was cancelled at the provider.");
    await page.goto("/login?error=something_unexpected");
    await expect(page.getByRole("alert")).toHaveText(
      "Sign-in with the provider did not complete. Please try again.",
    );
  });
});

test.describe("admin sign-in at /admin-login", () => {
  test("an admin signs in and lands on /admin", async ({ page }) => {
    test.slow(); // may wait for the authenticator's next code (each works once)
    await page.goto("/admin-login");
    await expect(page.getByRole("heading", { name: "Admin Login" })).toBeVisible();
    await expect(page.getByText("Only authorized admins can access this panel.")).toBeVisible();
    await submitSignIn(page, accounts.admin);
    await submitSecondStep(page, await totpCode(accounts.admin.totpSecret));
    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("navigation", { name: "Administration" })).toBeVisible();
  });

  test("a client is told they are not an admin, signed out, and stays on the screen", async ({ page }) => {
    await page.goto("/admin-login");
    await submitSignIn(page, accounts.otherClient);
    await expect(page.getByRole("alert")).toHaveText("You are not authorized as an admin.");
    await expect(page).toHaveURL("/admin-login");

    const session = await page.request.get("/api/auth/get-session");
    expect(await session.json()).toBeNull();
    await page.goto("/");
    await expect(page).toHaveURL("/login");
  });
});
