import { expect, freshAccount, submitSignIn, test } from "./support/fixtures.ts";
import { confirmLinkIn, waitForMail } from "./support/mailbox.ts";

test("Create Account asks the new person to confirm their email; the mailed link signs them in as the chosen role", async ({
  page,
}) => {
  const account = freshAccount();
  await page.goto("/login");
  await page.getByRole("tab", { name: "Create Account" }).click();
  await page.getByLabel("Full Name").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByLabel("Role").selectOption("editor");
  await page.getByRole("button", { name: "Create Account" }).click();

  await expect(page.getByRole("status")).toHaveText(
    `Check your inbox: we sent a link to ${account.email}. Open it to confirm your email and finish creating your account.`,
  );
  await expect(page).toHaveURL("/login");

  const mail = await waitForMail(account.email);
  // The firm's name is its branding (/admin/settings; e2e/admin-branding.spec.ts may change it meanwhile).
  expect(mail.subject).toMatch(/^Confirm your email for the .+ portal$/);
  await page.goto(confirmLinkIn(mail));
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("button", { name: "Open account menu" })).toContainText(account.name);
  const session = await (await page.request.get("/api/auth/get-session")).json();
  expect(session.user.email).toBe(account.email);
  expect(session.user.role).toBe("editor");
});

test("Create Account with an address that already has an account answers the same and mails its owner", async ({
  page,
  createAccount,
}) => {
  const existing = await createAccount();
  await page.goto("/login");
  await page.getByRole("tab", { name: "Create Account" }).click();
  await page.getByLabel("Full Name").fill("Someone Else");
  await page.getByLabel("Email").fill(existing.email);
  await page.getByLabel("Password").fill("an-attempt-to-take-over-77");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("status")).toHaveText(
    `Check your inbox: we sent a link to ${existing.email}. Open it to confirm your email and finish creating your account.`,
  );
  const warning = await waitForMail(existing.email, 2);
  expect(warning.subject).toMatch(/^Someone tried to create a .+ portal account with your email$/);
});

test("Create Account with a domain that is not allowed is refused and creates nothing", async ({ page }) => {
  const account = freshAccount("not-allowed.example");
  await page.goto("/login");
  await page.getByRole("tab", { name: "Create Account" }).click();
  await expect(page.getByText("Use your work email (@meridian-advisory.example).")).toBeVisible();
  await page.getByLabel("Full Name").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();

  await expect(page.getByRole("alert")).toHaveText(
    "Self sign-up is open only to email addresses at meridian-advisory.example.",
  );
  await expect(page).toHaveURL("/login");

  await page.getByRole("tab", { name: "Sign in" }).click();
  await submitSignIn(page, account);
  await expect(page.getByRole("alert")).toHaveText(/invalid email or password/i);
});

test("Create Account checks the form before sending it", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("tab", { name: "Create Account" }).click();
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Full name is required.")).toBeVisible();
  await expect(page.getByText("Password must be at least 8 characters.")).toBeVisible();
  await expect(page.getByLabel("Role").locator("option")).toHaveText(["Editor", "Author"]);
});
