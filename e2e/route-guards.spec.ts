import { accounts, expect, test } from "./support/fixtures.ts";

/** Spec section 2, route table: where each kind of visitor ends up. */
const routeTable = [
  { path: "/", anonymous: "/login", client: "/", admin: "/admin" },
  { path: "/profile", anonymous: "/login", client: "/profile", admin: "/admin" },
  { path: "/workbooks/x", anonymous: "/login", client: "/workbooks/x", admin: "/admin" },
  { path: "/admin", anonymous: "/admin-login", client: "/admin-login", admin: "/admin" },
  {
    path: "/admin/client-list",
    anonymous: "/admin-login",
    client: "/admin-login",
    admin: "/admin/client-list",
  },
  { path: "/login", anonymous: "/login", client: "/", admin: "/admin" },
  { path: "/admin-login", anonymous: "/admin-login", client: "/admin-login", admin: "/admin" },
] as const;

for (const visitor of ["anonymous", "client", "admin"] as const) {
  test.describe(`${visitor} visitor`, () => {
    for (const route of routeTable) {
      test(`${route.path} → ${route[visitor]}`, async ({ page, login }) => {
        if (visitor !== "anonymous") await login(accounts[visitor]);
        await page.goto(route.path);
        await expect(page).toHaveURL(route[visitor]);
        // The screen itself rendered (not only the URL changed).
        await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      });
    }
  });
}

test("'Checking authentication...' shows while the session is loading", async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/auth/get-session", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "commit" });
  await expect(page.getByRole("status")).toHaveText("Checking authentication...");
  release();
  await expect(page).toHaveURL("/login");
  await expect(page.getByText("Checking authentication...")).toBeHidden();
});
