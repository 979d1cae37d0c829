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

/**
 * Makes a team in the built-in analytics server through its Sigma REST API, as someone working in Sigma
 * would, outside the portal. Uses the API credentials the run's portal shares with it (DATA_DIR).
 */
export async function createTeamInSigma(request: APIRequestContext, name: string) {
  const credentials = JSON.parse(await readFile(path.join(runDir(), "data", "sigma-local.json"), "utf8")) as {
    apiClientId: string;
    apiClientSecret: string;
  };
  const api = `http://127.0.0.1:${E2E_ANALYTICS_PORT}/v2`;
  const token = await request.post(`${api}/auth/token`, {
    form: {
      grant_type: "client_credentials",
      client_id: credentials.apiClientId,
      client_secret: credentials.apiClientSecret,
    },
  });
  expect(token.status(), await token.text()).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  const team = await request.post(`${api}/teams`, {
    data: { name },
    headers: { authorization: `Bearer ${access_token}` },
  });
  expect(team.status(), await team.text()).toBe(200);
}

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
