import { expect, submitSignIn, test } from "./support/fixtures.ts";
import { resetLinkIn, waitForMail } from "./support/mailbox.ts";

test("Reset Password without an email asks for one", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please enter your email to reset password.");
});

test("reset by email: the mailed link sets a new password once", async ({ page, createAccount }) => {
  const account = await createAccount();

  await page.goto("/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByRole("status")).toHaveText("Password reset email sent. Check your inbox.");

  // The first mail confirmed the new account (fixtures), the second is the reset.
  const link = resetLinkIn(await waitForMail(account.email, 2));
  await page.goto(link);
  await expect(page).toHaveURL(/\/reset-password\?token=/);

  const newPassword = `${account.password}-renewed`;
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password has been changed.");

  await page.getByRole("link", { name: "Go to sign-in" }).click();
  await expect(page).toHaveURL("/login");
  await submitSignIn(page, { email: account.email, password: newPassword });
  await expect(page).toHaveURL("/");

  // The link works once: opened again it lands on a clear explanation and a way to get a new one.
  await page.goto(link);
  await expect(page).toHaveURL(/\/reset-password\?error=INVALID_TOKEN/);
  await expect(page.getByRole("alert")).toContainText(
    "This password reset link is invalid, has expired or was already used.",
  );
  await expect(page.getByRole("button", { name: "Send a new link" })).toBeVisible();
});

test("the old password no longer works after a reset, and mismatched passwords are refused", async ({
  page,
  createAccount,
}) => {
  const account = await createAccount();
  await page.goto("/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByRole("status")).toHaveText("Password reset email sent. Check your inbox.");
  await page.goto(resetLinkIn(await waitForMail(account.email, 2)));

  await page.getByLabel("New password", { exact: true }).fill("first-choice-password");
  await page.getByLabel("Confirm new password").fill("second-choice-password");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("The passwords do not match.")).toBeVisible();

  const newPassword = `${account.password}-next`;
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password has been changed.");

  await page.goto("/login");
  await submitSignIn(page, account);
  await expect(page.getByRole("alert")).toHaveText(/invalid email or password/i);
});

test("a reset link with a bad token explains the problem", async ({ page }) => {
  await page.goto("/reset-password?error=INVALID_TOKEN");
  await expect(page.getByRole("alert")).toContainText(
    "This password reset link is invalid, has expired or was already used.",
  );
  await page.getByLabel("Email").fill("someone@example.com");
  await page.getByRole("button", { name: "Send a new link" }).click();
  await expect(page.getByRole("status")).toHaveText("Password reset email sent. Check your inbox.");
});
