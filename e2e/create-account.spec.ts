import { expect, freshAccount, submitSignIn, test } from "./support/fixtures.ts";

test("Create Account with an allowed domain signs the new author in on /", async ({ page }) => {
  const account = freshAccount();
  await page.goto("/login");
  await page.getByRole("tab", { name: "Create Account" }).click();
  await page.getByLabel("Full Name").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByLabel("Role").selectOption("editor");

  const provision = page.waitForResponse("**/api/sigma/provision");
  await page.getByRole("button", { name: "Create Account" }).click();
  const provisioned = await provision;
  expect(provisioned.status()).toBe(202);
  expect(provisioned.request().headers()["authorization"]).toMatch(/^Bearer ey/);
  expect(provisioned.request().postDataJSON()).toEqual({
    name: account.name,
    email: account.email,
    role: "editor",
  });

  await expect(page).toHaveURL("/");
  await expect(page.getByRole("button", { name: "Open account menu" })).toContainText(account.name);
  const session = await (await page.request.get("/api/auth/get-session")).json();
  expect(session.user.email).toBe(account.email);
  expect(session.user.role).toBe("editor");
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

test("when provisioning fails the new account holder is told what happened", async ({ page }) => {
  await page.route("**/api/sigma/provision", (route) =>
    route.fulfill({ status: 503, json: { error: "The analytics service is unavailable." } }),
  );
  const account = freshAccount();
  await page.goto("/login");
  await page.getByRole("tab", { name: "Create Account" }).click();
  await page.getByLabel("Full Name").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Your account was created, but your report access could not be set up. The analytics service is unavailable. Please contact your advisor.",
  );
  await expect(page).toHaveURL("/login");
});
