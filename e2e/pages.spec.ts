import { accounts, expect, test } from "./support/fixtures.ts";

test("an unknown path shows the 404 page and Go Home leads to /", async ({ page, login }) => {
  await login(accounts.client);
  await page.goto("/no/such/page");
  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Oops! Page not found." })).toBeVisible();
  await expect(page.getByText("The page you’re looking for doesn’t exist or has been moved.")).toBeVisible();
  await page.getByRole("link", { name: "Go Home" }).click();
  await expect(page).toHaveURL("/");
  // Home shows the client's first workbook.
  await expect(page.locator('[data-embed-state="loaded"]')).toBeVisible();
});

test("Terms of Service and Privacy Policy are reachable from /login", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Terms of Service" }).click();
  await expect(page).toHaveURL("/terms");
  await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
  await page.getByRole("link", { name: "Back to sign-in" }).click();
  await expect(page).toHaveURL("/login");

  await page.getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL("/privacy");
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
});

test("the sidebar collapses from w-64 to w-16 and back", async ({ page, login }) => {
  await login(accounts.client);
  await page.goto("/");
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await expect(sidebar).toHaveCSS("width", "256px");
  await page.getByRole("button", { name: "Collapse sidebar" }).click();
  await expect(sidebar).toHaveCSS("width", "64px");
  await expect(page.getByRole("button", { name: "Expand sidebar" })).toHaveAttribute(
    "aria-expanded",
    "false",
  );
  await page.getByRole("button", { name: "Expand sidebar" }).click();
  await expect(sidebar).toHaveCSS("width", "256px");
});

test("the user shell has a 90px header and a breadcrumb naming the workbook shown", async ({
  page,
  login,
}) => {
  await login(accounts.client);
  await page.goto("/workbooks/Tax-Center-hPiZspmSJMAnf8GyCctPAE");
  await expect(page.getByRole("banner")).toHaveCSS("height", "90px");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText(/Home.*Tax Center/);
  await expect(page.locator('[data-embed-state="loaded"]')).toBeVisible();
});

test("the admin sidebar links open each back-office list and the BI sync page", async ({ page, login }) => {
  await login(accounts.admin);
  await page.goto("/admin");
  const nav = page.getByRole("navigation", { name: "Administration" });
  for (const [label, path] of [
    ["Employees", "/admin/employee-list"],
    ["Workbooks", "/admin/workbook-list"],
    ["BI sync", "/admin/sync"],
    ["Clients", "/admin/client-list"],
  ] as const) {
    await nav.getByRole("link", { name: label }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
  }
});

test.describe("sign-in screen follows the public configuration", () => {
  test("without self sign-up the toggle is hidden and the screen says why", async ({ page }) => {
    await page.route("**/api/config", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), signUpEnabled: false } });
    });
    await page.goto("/login");
    await expect(page.getByText("New accounts are set up by your advisory team.")).toBeVisible();
    await expect(page.getByRole("tab", { name: "Create Account" })).toHaveCount(0);
  });

  test("configured providers appear as sign-in icons; none configured shows none", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Sign in with (?!a passkey)/ })).toHaveCount(0);

    await page.route("**/api/config", async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        json: {
          ...(await response.json()),
          socialProviders: [
            { id: "google", name: "Google" },
            { id: "oidc", name: "Company SSO" },
          ],
        },
      });
    });
    await page.reload();
    await expect(page.getByRole("button", { name: "Sign in with Google" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in with Company SSO" })).toBeVisible();
  });
});
