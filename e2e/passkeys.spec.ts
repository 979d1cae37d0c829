import type { Browser, BrowserContext, CDPSession, Page } from "@playwright/test";

import { E2E_PORT } from "./support/env.ts";
import { accounts, expect, submitSignIn, test, totpCode } from "./support/fixtures.ts";
import type { TAccount } from "./support/fixtures.ts";
import { startPortalInstance } from "./support/portal-instance.ts";
import type { TPortalInstance } from "./support/portal-instance.ts";

/**
 * Passkeys (issue 24) with Chromium's virtual authenticator (WebAuthn over the DevTools protocol): one that
 * holds discoverable credentials and confirms the person (as a fingerprint would) without being asked.
 *
 * WebAuthn refuses an IP address as the relying party (the suite's server is at 127.0.0.1), so this journey
 * starts a portal of its own at http://localhost (its PUBLIC_URL, hence its relying party), with an admin
 * who has not set up two-step verification yet. Its tests run one after another in one worker: they share it.
 */
const PORT = E2E_PORT + 4; // after the short-session portal's two ports (support/env.ts)
const ANALYTICS_PORT = E2E_PORT + 5;
const ORIGIN = `http://localhost:${PORT}`;
const NEW_ADMIN = {
  name: "Passkey Administrator",
  email: "e2e-passkey-admin@meridian-advisory.example",
  password: "harbour-lantern-orbit-64",
} as const;

const UNKNOWN_PASSKEY =
  "This passkey is not (or no longer) registered with the portal. Sign in with your password or another passkey.";
const PASSKEY_SIGN_IN_REQUIRED = "Your account's second step is a passkey. Sign in with your passkey.";

test.describe.configure({ mode: "serial" });

let portal: TPortalInstance | undefined;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  portal = await startPortalInstance({
    name: "passkeys",
    port: PORT,
    analyticsPort: ANALYTICS_PORT,
    env: { PUBLIC_URL: ORIGIN, ADMIN_EMAIL: NEW_ADMIN.email, ADMIN_PASSWORD: NEW_ADMIN.password },
  });
});

test.afterAll(async () => {
  await portal?.stop();
});

// The browsers a test opened (browserWithAuthenticator), closed after it.
const opened: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(opened.splice(0).map((context) => context.close()));
});

type TBrowserWithAuthenticator = { page: Page; cdp: CDPSession; authenticatorId: string };

/**
 * A browser of its own on the passkey portal with a virtual authenticator. The authenticator answers the
 * sign-in page's autofill request (passkeys among the email field's suggestions) at once, as a person picking
 * their passkey there would; `autofill: false` tells the page the browser offers none, so the button is used.
 */
async function browserWithAuthenticator(
  browser: Browser,
  { autofill }: { autofill: boolean },
): Promise<TBrowserWithAuthenticator> {
  const context = await browser.newContext({ baseURL: ORIGIN });
  opened.push(context);
  if (!autofill) {
    await context.addInitScript(() => {
      window.PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { page, cdp, authenticatorId };
}

/** Signs the page's browser in with the password through the API (the sign-in form has its own tests). */
async function signInWithPassword(page: Page, account: Pick<TAccount, "email" | "password">) {
  const response = await page.request.post("/api/auth/sign-in/email", {
    data: { email: account.email, password: account.password },
    headers: { Origin: ORIGIN },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** The session of the page's browser as the web app reads it (null when signed out). */
async function sessionOf(page: Page) {
  return (await (await page.request.get("/api/auth/get-session")).json()) as {
    session: { signInMethod: string | null };
    secondStep: { status: string; requiredForRole: boolean };
  } | null;
}

/** Adds a passkey on /profile under `name`, as a person does: the name, then the browser's prompt. */
async function addPasskeyOnProfile(page: Page, name: string) {
  await page.goto("/profile");
  const card = page.getByRole("region", { name: "Passkeys" });
  await card.getByRole("button", { name: "Add a passkey" }).click();
  await card.getByLabel("Name").fill(name);
  await card.getByRole("button", { name: "Add passkey" }).click();
  await expect(card.getByRole("status")).toHaveText(
    `"${name}" was added. You can sign in with it from now on.`,
  );
  return card;
}

test("a client adds a passkey on the profile, renames it, signs in with it, and once removed it signs in no more", async ({
  browser,
}) => {
  const { page, cdp, authenticatorId } = await browserWithAuthenticator(browser, { autofill: false });
  await signInWithPassword(page, accounts.client);

  const card = await addPasskeyOnProfile(page, "Work laptop");
  const passkeys = card.getByRole("list", { name: "Your passkeys" }).getByRole("listitem");
  await expect(passkeys).toHaveCount(1);
  await expect(passkeys.first()).toContainText("Work laptop");
  await expect(passkeys.first()).toContainText("Added just now");
  // The password, then a passkey made just now: this session took two steps.
  const thisDevice = page
    .getByRole("list", { name: "Your sessions" })
    .getByRole("listitem")
    .filter({ hasText: "This device" });
  await expect(thisDevice).toContainText("Signed in with: Password and new passkey");

  await test.step("Rename in place", async () => {
    await card.getByRole("button", { name: "Rename passkey Work laptop" }).click();
    await card.getByLabel("New name for Work laptop").fill("Office laptop");
    await card.getByRole("button", { name: "Save name" }).click();
    await expect(card.getByRole("status")).toHaveText('The passkey is now called "Office laptop".');
    await expect(card.getByRole("button", { name: "Rename passkey Office laptop" })).toBeFocused();
  });

  await test.step("signed out, 'Sign in with a passkey' signs the client in on its own", async () => {
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL("/login");
    await expect(page.getByLabel("Email")).toHaveAttribute("autocomplete", "email webauthn");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("button", { name: "Open account menu" })).toContainText(accounts.client.name);
    expect((await sessionOf(page))?.session.signInMethod).toBe("passkey");
    await page.goto("/profile");
    await expect(thisDevice).toContainText("Signed in with: Passkey");
  });

  await test.step("Remove asks first; the passkey then no longer signs in, though the device still holds it", async () => {
    await card.getByRole("button", { name: "Remove passkey Office laptop" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Remove this passkey?" });
    await expect(dialog).toContainText('"Office laptop" will no longer sign you in to the portal.');
    await dialog.getByRole("button", { name: "Yes, Remove" }).click();
    await expect(card.getByRole("status")).toContainText('"Office laptop" was removed');
    await expect(card.getByText("You have no passkeys yet.")).toBeVisible();
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);

    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL("/login");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByRole("alert")).toHaveText(UNKNOWN_PASSKEY);
    await expect(page).toHaveURL("/login");
    expect(await sessionOf(page)).toBeNull();
  });
});

test("a passkey picked from the email field's suggestions signs in as soon as /login shows", async ({
  browser,
}) => {
  const { page } = await browserWithAuthenticator(browser, { autofill: true });
  await signInWithPassword(page, accounts.otherClient);
  await addPasskeyOnProfile(page, "Phone");
  await page.context().clearCookies();

  // The authenticator answers the email field's passkey request by itself: no button is pressed.
  await page.goto("/login");
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("button", { name: "Open account menu" })).toContainText(
    accounts.otherClient.name,
  );
  expect((await sessionOf(page))?.session.signInMethod).toBe("passkey");
});

test("a new admin sets up a passkey as the second step, then signs in at /admin-login with the passkey alone", async ({
  browser,
}) => {
  const { page } = await browserWithAuthenticator(browser, { autofill: false });
  // Another browser, signed in with the password before the passkey existed.
  const earlier = await browserWithAuthenticator(browser, { autofill: false });
  await signInWithPassword(earlier.page, NEW_ADMIN);

  await page.goto("/admin-login");
  await page.getByLabel("Email").fill(NEW_ADMIN.email);
  await page.getByLabel("Password").fill(NEW_ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { name: "Set up two-step verification" })).toBeVisible();
  expect((await sessionOf(page))?.secondStep).toEqual({ status: "required", requiredForRole: true });

  const setup = page.getByRole("region", { name: "Set up two-step verification" });
  await setup.getByRole("button", { name: "Use a passkey" }).click();
  await setup.getByLabel("Passkey name").fill("Office key");
  await setup.getByRole("button", { name: "Add passkey" }).click();
  await expect(setup.getByRole("status")).toHaveText(
    'Your passkey "Office key" is set up. From now on, sign in with it.',
  );
  // No backup codes on this path.
  await expect(page.getByRole("list", { name: "Backup codes" })).toHaveCount(0);
  await setup.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
  expect((await page.request.get("/api/admin/clients")).status()).toBe(200);

  await test.step("the session that took the password alone is sent back to sign in with the passkey", async () => {
    await earlier.page.goto("/admin");
    await expect(earlier.page.getByRole("heading", { name: "Sign in with your passkey" })).toBeVisible();
    await expect(earlier.page.getByText(PASSKEY_SIGN_IN_REQUIRED)).toBeVisible();
    await expect(earlier.page.getByRole("heading", { level: 1, name: "Clients" })).toHaveCount(0);
    await earlier.page.getByRole("button", { name: "Sign in again" }).click();
    await expect(earlier.page).toHaveURL("/admin-login");
    expect(await sessionOf(earlier.page)).toBeNull();
  });

  await test.step("the password alone is turned down with the reason beside the passkey button", async () => {
    await page.context().clearCookies();
    await page.goto("/admin-login");
    await page.getByLabel("Email").fill(NEW_ADMIN.email);
    await page.getByLabel("Password").fill(NEW_ADMIN.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText(PASSKEY_SIGN_IN_REQUIRED);
    await expect(page).toHaveURL("/admin-login");
    expect(await sessionOf(page)).toBeNull();
  });

  await test.step("the passkey alone reaches /admin", async () => {
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
    const session = await sessionOf(page);
    expect(session?.session.signInMethod).toBe("passkey");
    expect(session?.secondStep).toEqual({ status: "enrolled", requiredForRole: true });
  });
});

test("with two-step verification required of clients, a client without it is set up after the password and sees no workbook until then; the policy off lets them in", async ({
  browser,
  playwright,
}) => {
  // The firm's policy, saved as an admin (with the demo admin's authenticator code) through the settings API.
  const admin = await playwright.request.newContext({
    baseURL: ORIGIN,
    extraHTTPHeaders: { Origin: ORIGIN },
  });
  const password = await admin.post("/api/auth/sign-in/email", {
    data: { email: accounts.admin.email, password: accounts.admin.password },
  });
  expect(await password.json()).toMatchObject({ twoFactorRedirect: true });
  const code = await admin.post("/api/auth/two-factor/verify-totp", {
    data: { code: await totpCode(accounts.admin.totpSecret) },
  });
  expect(code.status(), await code.text()).toBe(200);
  const requireOfClients = async (required: boolean) => {
    const saved = await admin.put("/api/admin/settings/sign-in", {
      data: { mfaRequiredRoles: required ? ["client"] : [], emailCodes: false },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  };

  const { page } = await browserWithAuthenticator(browser, { autofill: false });
  const workbookLinks = page.getByRole("navigation", { name: "Workbooks" }).getByRole("link");
  const setupHeading = page.getByRole("heading", { name: "Set up two-step verification" });
  try {
    await requireOfClients(true);
    // The first journey removed this client's only passkey: no second step.
    await page.goto("/login");
    await submitSignIn(page, accounts.client);
    await expect(page).toHaveURL("/");
    await expect(setupHeading).toBeVisible();
    await expect(workbookLinks).toHaveCount(0);
    await expect(page.locator("iframe")).toHaveCount(0);
    expect((await page.request.get("/api/me/workbooks")).status()).toBe(403);

    await test.step("the policy off lets them in again", async () => {
      await requireOfClients(false);
      await page.reload();
      await expect(workbookLinks.first()).toBeVisible();
      await expect(setupHeading).toHaveCount(0);
      expect((await page.request.get("/api/me/workbooks")).status()).toBe(200);
    });

    await test.step("on again: set up with a passkey, then the workbooks", async () => {
      await requireOfClients(true);
      await page.reload();
      await expect(setupHeading).toBeVisible();
      const setup = page.getByRole("region", { name: "Set up two-step verification" });
      await setup.getByRole("button", { name: "Use a passkey" }).click();
      await setup.getByLabel("Passkey name").fill("Home laptop");
      await setup.getByRole("button", { name: "Add passkey" }).click();
      await setup.getByRole("button", { name: "Continue" }).click();
      await expect(workbookLinks.first()).toBeVisible();
      expect((await page.request.get("/api/me/workbooks")).status()).toBe(200);
    });
  } finally {
    await requireOfClients(false);
    await admin.dispose();
  }
});
