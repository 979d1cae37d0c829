import { createHash, randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { test as base, expect } from "@playwright/test";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";

import { DEMO_ADMIN, DEMO_CLIENTS, DEMO_EMPLOYEE } from "../../packages/contracts/src/demo.ts";
import { confirmLinkIn, waitForMail } from "./mailbox.ts";
import { BASE_URL, runDir } from "./env.ts";

export type TAccount = {
  name: string;
  email: string;
  password: string;
  /** Raw TOTP secret of an account with two-step verification (the demo admin's is seeded, DEVIATIONS D30). */
  totpSecret?: string;
};

const [olivia, marcus] = DEMO_CLIENTS;

/** The demo identities seeded with DEMO_DATA=on. */
export const accounts = {
  admin: {
    name: DEMO_ADMIN.name,
    email: DEMO_ADMIN.email,
    password: DEMO_ADMIN.password,
    totpSecret: DEMO_ADMIN.totpSecret,
  },
  client: { name: `${olivia.firstName} ${olivia.lastName}`, email: olivia.email, password: olivia.password },
  otherClient: {
    name: `${marcus.firstName} ${marcus.lastName}`,
    email: marcus.email,
    password: marcus.password,
  },
  employee: {
    name: `${DEMO_EMPLOYEE.firstName} ${DEMO_EMPLOYEE.lastName}`,
    email: DEMO_EMPLOYEE.email,
    password: DEMO_EMPLOYEE.password,
  },
} satisfies Record<string, TAccount>;

export const ALLOWED_DOMAIN = "meridian-advisory.example";

/** A never-used identity on the sign-up domain (or another domain). */
export function freshAccount(domain = ALLOWED_DOMAIN): TAccount {
  const id = randomUUID().slice(0, 8);
  return { name: `Test Author ${id}`, email: `e2e-${id}@${domain}`, password: `ledger-${randomUUID()}` };
}

/** Better Auth checks the Origin of cookie-bearing POSTs, like a browser sends it. */
export function postAuth(request: APIRequestContext, path: string, data: Record<string, unknown>) {
  return request.post(`/api/auth${path}`, { data, headers: { Origin: BASE_URL } });
}

const TOTP_STEP_MS = 30_000;

/**
 * A code of a raw TOTP secret, computed with Better Auth's own OTP helper (no mocks), that no process of
 * this run has used: the portal accepts each code once (decision 006). Takes the current or the next time
 * step (the server accepts one either side) by creating a marker file only one process can create, and
 * waits for the clock when both are taken.
 */
export async function totpCode(secret: string): Promise<string> {
  const dir = path.join(runDir(), "totp-steps");
  await mkdir(dir, { recursive: true });
  const account = createHash("sha256").update(secret).digest("hex").slice(0, 16);
  for (;;) {
    const now = Math.floor(Date.now() / TOTP_STEP_MS);
    for (const step of [now, now + 1]) {
      const taken = await writeFile(path.join(dir, `${account}-${step}`), "", { flag: "wx" }).then(
        () => false,
        (error: NodeJS.ErrnoException) => {
          if (error.code === "EEXIST") return true;
          throw error;
        },
      );
      if (!taken) return createOTP(secret).hotp(step);
    }
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * TOTP_STEP_MS - Date.now() + 50));
  }
}

/** A 6-digit code that is none of the codes the server would accept now for the secret. */
export async function wrongTotpCode(secret: string): Promise<string> {
  const now = Math.floor(Date.now() / TOTP_STEP_MS);
  const near = await Promise.all(
    [now - 1, now, now + 1, now + 2].map((step) => createOTP(secret).hotp(step)),
  );
  return ["000000", "111111", "222222", "333333", "444444"].find((code) => !near.includes(code))!;
}

/**
 * Sessions of accounts with two-step verification, kept for the worker's next tests: a code works once and
 * an authenticator shows one a half-minute, so signing in afresh for every test would wait for the clock.
 * Kept per worker, never shared between workers, so a test that signs out ends no other test's session;
 * the worker's next test notices and signs in again.
 */
type TCookies = Awaited<ReturnType<BrowserContext["cookies"]>>;
const keptSessions = new Map<string, TCookies>();

async function reuseSession(page: Page, email: string): Promise<boolean> {
  const kept = keptSessions.get(email);
  if (!kept) return false;
  await page.context().addCookies(kept);
  const current = await page.request.get("/api/auth/get-session");
  if (current.ok() && (await current.json()) !== null) return true;
  keptSessions.delete(email);
  await page.context().clearCookies();
  return false;
}

/** The raw secret behind a base32 setup key as the enrolment screen shows it (spaces allowed). */
export function secretOfKey(key: string): string {
  return new TextDecoder().decode(base32.decode(key.replace(/\s+/g, "")));
}

/** Fills and submits the second step ("Enter the 6-digit code...") of /login or /admin-login. */
export async function submitSecondStep(page: Page, code: string) {
  await expect(page.getByText("Enter the 6-digit code from your authenticator app.")).toBeVisible();
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
}

/** Fills and submits the email + password form of /login or /admin-login. */
export async function submitSignIn(page: Page, account: Pick<TAccount, "email" | "password">) {
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

type TFixtures = {
  /**
   * Signs the page's browser context in through the API (fast; the sign-in screens have their own tests),
   * with the second step for an account with two-step verification (whose session the worker keeps).
   */
  login: (account: Pick<TAccount, "email" | "password" | "totpSecret">) => Promise<void>;
  /** Creates a self-sign-up account through the API, outside the page's context; returns its identity. */
  createAccount: () => Promise<TAccount>;
};

export const test = base.extend<TFixtures>({
  login: async ({ page }, use, testInfo) => {
    await use(async (account) => {
      if (account.totpSecret && (await reuseSession(page, account.email))) return;
      const response = await postAuth(page.request, "/sign-in/email", {
        email: account.email,
        password: account.password,
      });
      expect(response.status(), await response.text()).toBe(200);
      const body = (await response.json()) as { twoFactorRedirect?: boolean } | null;
      if (body?.twoFactorRedirect) {
        expect(account.totpSecret, `${account.email} needs a TOTP secret`).toBeTruthy();
        // A fresh code may mean waiting up to half a minute for the clock: that wait is not the test's time.
        testInfo.setTimeout(testInfo.timeout + TOTP_STEP_MS);
        const verified = await postAuth(page.request, "/two-factor/verify-totp", {
          code: await totpCode(account.totpSecret!),
        });
        expect(verified.status(), await verified.text()).toBe(200);
        keptSessions.set(account.email, await page.context().cookies());
      }
    });
  },
  createAccount: async ({ playwright }, use) => {
    const request = await playwright.request.newContext({ baseURL: BASE_URL });
    await use(async () => {
      const account = freshAccount();
      const response = await postAuth(request, "/sign-up/email", account);
      expect(response.status(), await response.text()).toBe(200);
      // A new account confirms its email before its first sign-in (DEVIATIONS D33).
      const confirmed = await request.get(confirmLinkIn(await waitForMail(account.email)), {
        maxRedirects: 0,
      });
      expect(confirmed.status()).toBe(302);
      return account;
    });
    await request.dispose();
  },
});

export { expect };
