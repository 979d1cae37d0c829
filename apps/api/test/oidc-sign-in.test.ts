import type { Server } from "node:http";
import { eq } from "drizzle-orm";
import type { Browser } from "@playwright/test";
import Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { accounts, users } from "../src/db/schema.ts";
import { createTestApp } from "./support/app.ts";
import { launchChromium } from "./support/browser.ts";
import { createTestDatabase } from "./support/database.ts";
import { freePort } from "./support/net.ts";

let database: DatabaseHandle;
let browser: Browser;
let op: Server;
let portal: Awaited<ReturnType<typeof createTestApp>>;
let portalUrl: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const opPort = await freePort();
  const portalPort = await freePort();
  const issuer = `http://127.0.0.1:${opPort}`;
  portalUrl = `http://127.0.0.1:${portalPort}`;

  // A real OpenID Provider: its development login form accepts any login, which becomes the subject
  // and the email claim.
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "portal",
        client_secret: "portal-client-secret-for-tests-only",
        redirect_uris: [`${portalUrl}/api/auth/oauth2/callback/oidc`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    cookies: { keys: ["oidc-test-cookie-key-0123456789"] },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, name: `SSO ${id.split("@")[0]}` }),
    }),
  });
  op = provider.listen(opPort, "127.0.0.1");

  portal = await createTestApp(database, {
    PUBLIC_URL: portalUrl,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: "portal",
    OIDC_CLIENT_SECRET: "portal-client-secret-for-tests-only",
    OIDC_NAME: "Firm SSO",
  });
  await portal.app.listen({ port: portalPort, host: "127.0.0.1" });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await portal?.app.close();
  await new Promise((resolve) => op?.close(resolve));
  await database?.close();
});

async function signInThroughProvider(login: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${portalUrl}/healthz`);
  const start = await page.evaluate(async () => {
    const res = await fetch("/api/auth/sign-in/oauth2", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ providerId: "oidc", callbackURL: "/healthz", errorCallbackURL: "/login" }),
    });
    return (await res.json()) as { url: string };
  });
  await page.goto(start.url);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', "any-password");
  await page.click('button[type="submit"]');
  // Consent screen of the provider.
  await page.click('button[type="submit"]');
  await page.waitForURL((url) => url.origin === portalUrl);
  const session = await page.evaluate(async () => (await fetch("/api/auth/get-session")).json());
  const finalUrl = page.url();
  await context.close();
  return { session: session as { user: { email: string; role: string } } | null, finalUrl };
}

describe("generic OpenID Connect sign-in", () => {
  it("is offered on the sign-in screen's configuration", async () => {
    const res = await portal.app.inject({ method: "GET", url: "/api/config" });
    expect(res.json().socialProviders).toEqual([{ id: "oidc", name: "Firm SSO" }]);
  });

  it("signs a new person in through the provider, keyed by provider and subject, without admin", async () => {
    const email = "sso.person@meridian-advisory.example";
    const { session, finalUrl } = await signInThroughProvider(email);
    expect(new URL(finalUrl).pathname).toBe("/healthz");
    expect(session?.user.email).toBe(email);
    expect(session?.user.role).toBe("author");
    const [account] = await database.db
      .select({ providerId: accounts.providerId, accountId: accounts.accountId })
      .from(accounts)
      .innerJoin(users, eq(users.id, accounts.userId))
      .where(eq(users.email, email));
    expect(account).toEqual({ providerId: "oidc", accountId: email });
  });

  it("does not create an account for an email domain outside the sign-up allow-list", async () => {
    const email = "stranger@outside.example";
    const { session, finalUrl } = await signInThroughProvider(email);
    expect(session).toBeNull();
    expect(new URL(finalUrl).pathname).toBe("/login");
    expect(await database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });
});
