import { accounts, expect, submitSignIn, test } from "./support/fixtures.ts";

/** Decision 004: the sign-in screens are their own small page; the SPA loads once someone is signed in. */
test("/login and /admin-login load the sign-in page without the SPA", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  for (const [path, heading] of [
    ["/login", "Welcome Back"],
    ["/admin-login", "Admin Login"],
  ] as const) {
    scripts.length = 0;
    await page.goto(path, { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    expect(
      scripts.some((script) => /^\/assets\/login-[\w-]+\.js$/.test(script)),
      path,
    ).toBe(true);
    expect(
      scripts.filter((script) => /^\/assets\/index-/.test(script)),
      path,
    ).toEqual([]);
  }
});

test("signing in moves from the sign-in page to the SPA, and Back does not return to the form", async ({
  page,
}) => {
  await page.goto("/terms");
  await page.getByRole("link", { name: "Back to sign-in" }).click();
  await expect(page).toHaveURL("/login");
  await submitSignIn(page, accounts.client);
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("button", { name: "Open account menu" })).toContainText(accounts.client.name);
  await page.goBack();
  await expect(page).toHaveURL("/terms");
  await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
});

test("Back and Forward between the SPA's pages and the sign-in page show each page", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await page.getByRole("link", { name: "Back to sign-in" }).click();
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL("/privacy");
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
});

test("a guard's redirect inside the SPA hands over to the sign-in page, and Back returns", async ({
  page,
}) => {
  await page.goto("/no/such/page");
  // An in-app link to a guarded route: the SPA's router redirects, then the sign-in page loads.
  await page.getByRole("link", { name: "Go Home" }).click();
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL("/no/such/page");
  await expect(page.getByRole("heading", { name: "Oops! Page not found." })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
});
