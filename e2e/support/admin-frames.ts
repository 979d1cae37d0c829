import type { Page, Response } from "@playwright/test";

import { E2E_ANALYTICS_PORT } from "./env.ts";

const isAnalytics = (url: URL) => url.port === String(E2E_ANALYTICS_PORT);

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
  );
  return {
    /** The URL the frame asked for (resolves as soon as the frame starts loading). */
    request,
    release: async () => {
      release();
      const answer = await response;
      await page.unroute(isAnalytics);
      return answer;
    },
  };
}
