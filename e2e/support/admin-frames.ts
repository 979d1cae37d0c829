import { readFile } from "node:fs/promises";
import path from "node:path";

import { expect } from "@playwright/test";
import type { APIRequestContext, Page, Response } from "@playwright/test";

import { E2E_ANALYTICS_PORT, runDir } from "./env.ts";

const isAnalytics = (url: URL) => url.port === String(E2E_ANALYTICS_PORT);

/**
 * The web server of the run is ready when the portal answers; the built-in analytics server beside it
 * may still be loading its demo data. Journeys that load its frames wait for it first (polling).
 */
export async function waitForAnalyticsServer(request: APIRequestContext) {
  await expect
    .poll(
      async () => {
        const answer = await request
          .get(`http://127.0.0.1:${E2E_ANALYTICS_PORT}/healthz`, { timeout: 5_000 })
          .catch(() => undefined);
        return answer?.status();
      },
      { message: "the built-in analytics server answers /healthz", timeout: 90_000 },
    )
    .toBe(200);
}

/** A bearer token for the built-in analytics server's Sigma REST API (the run's shared API credentials). */
async function sigmaToken(request: APIRequestContext): Promise<string> {
  const credentials = JSON.parse(await readFile(path.join(runDir(), "data", "sigma-local.json"), "utf8")) as {
    apiClientId: string;
    apiClientSecret: string;
  };
  // Sigma's postToken: the client id and secret by HTTP Basic authentication.
  const basic = Buffer.from(`${credentials.apiClientId}:${credentials.apiClientSecret}`).toString("base64");
  const token = await request.post(`${sigmaApi()}/auth/token`, {
    form: { grant_type: "client_credentials" },
    headers: { authorization: `Basic ${basic}` },
  });
  expect(token.status(), await token.text()).toBe(200);
  return ((await token.json()) as { access_token: string }).access_token;
}

const sigmaApi = () => `http://127.0.0.1:${E2E_ANALYTICS_PORT}/v2`;

/**
 * Makes an embed member in the built-in analytics server through its Sigma REST API and deactivates it as
 * the firm's identity provider would (SCIM: `isInactive`), outside the portal. The portal cannot bring such
 * a member back (only the identity provider may), so a person with that email fails to sync, with the reason.
 */
export async function deactivateInSigmaByIdentityProvider(request: APIRequestContext, email: string) {
  const authorization = `Bearer ${await sigmaToken(request)}`;
  const created = await request.post(`${sigmaApi()}/members`, {
    data: { email, firstName: "Deactivated", lastName: "ByScim", memberType: "View", userKind: "embed" },
    headers: { authorization },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { memberId } = (await created.json()) as { memberId: string };
  const patched = await request.patch(`${sigmaApi()}/members/${memberId}`, {
    data: { isInactive: true },
    headers: { authorization },
  });
  expect(patched.status(), await patched.text()).toBe(200);
}

/** What Sigma's refusal reads like on the portal's screens (sigma/provisioning.ts). */
export const scimRefusal = (email: string) =>
  `${email} was deactivated in Sigma by the firm's identity provider (SCIM): reactivate them there, then Retry.`;

/**
 * Holds the hidden Sigma registration frame's request to the built-in analytics server until
 * `release()`, so the 'Registering ... in Sigma...' status can be seen; `response` resolves with
 * what the analytics server answered once released.
 */
export async function holdRegistrationFrame(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let requested!: (url: string) => void;
  const request = new Promise<string>((resolve) => (requested = resolve));
  await page.route(isAnalytics, async (route) => {
    if (route.request().frame() !== page.mainFrame()) requested(route.request().url());
    await held;
    await route.continue();
  });
  const response: Promise<Response> = page.waitForResponse(
    (answer) => isAnalytics(new URL(answer.url())) && answer.request().isNavigationRequest(),
    // The form moves on after 15 s without the frame; an answer later than that is a failure anyway.
    { timeout: 20_000 },
  );
  // Reported instead of a bare timeout when the analytics server cannot be reached at all.
  const failed = new Promise<never>((_, reject) =>
    page.on("requestfailed", (failure) => {
      if (isAnalytics(new URL(failure.url())) && failure.isNavigationRequest()) {
        reject(
          new Error(`The registration frame failed to load: ${failure.failure()?.errorText ?? "unknown"}`),
        );
      }
    }),
  );
  return {
    /** The URL the frame asked for (resolves as soon as the frame starts loading). */
    request,
    release: async () => {
      release();
      const answer = await Promise.race([response, failed]);
      await page.unroute(isAnalytics);
      return answer;
    },
  };
}
