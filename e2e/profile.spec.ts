import { accounts, expect, test } from "./support/fixtures.ts";

test("profile name: a blank save is ignored, a real save persists after reload", async ({
  page,
  login,
  createAccount,
}) => {
  const account = await createAccount();
  await login(account);
  await page.goto("/profile");
  const main = page.getByRole("main");
  await expect(main.getByText(account.email)).toBeVisible();
  await expect(main.getByText(account.name, { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Edit name" }).click();
  const nameInput = page.getByLabel("Name", { exact: true });
  await nameInput.fill("   ");
  await page.getByRole("button", { name: "Save" }).click();
  // Still editing, nothing sent: the name on the server is unchanged.
  await expect(nameInput).toBeVisible();
  const unchanged = await (await page.request.get("/api/auth/get-session")).json();
  expect(unchanged.user.name).toBe(account.name);

  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(main.getByText(account.name, { exact: true })).toBeVisible();

  const newName = `${account.name} Renamed`;
  await page.getByRole("button", { name: "Edit name" }).click();
  await page.getByLabel("Name", { exact: true }).fill(newName);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(main.getByText(newName, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Open account menu" })).toContainText(newName);

  await page.reload();
  await expect(main.getByText(newName, { exact: true })).toBeVisible();
});

test("Profile is reached from the avatar menu", async ({ page, login }) => {
  await login(accounts.client);
  await page.goto("/");
  await page.getByRole("button", { name: "Open account menu" }).click();
  await page.getByRole("menuitem", { name: "Profile" }).click();
  await expect(page).toHaveURL("/profile");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Profile");
  await expect(page).toHaveTitle("Profile · Meridian Client Portal");
});

test("Logout from the avatar menu ends the session and goes to /login", async ({
  page,
  login,
  createAccount,
}) => {
  await login(await createAccount());
  await page.goto("/");
  await page.getByRole("button", { name: "Open account menu" }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL("/login");
  // The sign-in page itself has loaded (the SPA hands /login over with a full page load).
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  expect(await (await page.request.get("/api/auth/get-session")).json()).toBeNull();
  // The guard's hand-off to /login may start before /profile's load event, so wait for the commit only.
  await page.goto("/profile", { waitUntil: "commit" });
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
});

test("Logout on the profile page goes to /login", async ({ page, login, createAccount }) => {
  await login(await createAccount());
  await page.goto("/profile");
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL("/login");
  expect(await (await page.request.get("/api/auth/get-session")).json()).toBeNull();
});

test("admin Logout shows the check, then returns to /admin-login signed out", async ({ page, login }) => {
  await login(accounts.admin);
  await page.goto("/admin");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/auth/sign-out", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("button", { name: "Open account menu" }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page.getByRole("status")).toHaveText("Checking authentication...");
  release();
  await expect(page).toHaveURL("/admin-login");
  // The sign-in page itself has loaded (the SPA hands /admin-login over with a full page load).
  await expect(page.getByRole("heading", { name: "Admin Login" })).toBeVisible();
  // The guard's hand-off to /admin-login may start before /admin's load event, so wait for the commit only.
  await page.goto("/admin", { waitUntil: "commit" });
  await expect(page).toHaveURL("/admin-login");
  await expect(page.getByRole("heading", { name: "Admin Login" })).toBeVisible();
});
