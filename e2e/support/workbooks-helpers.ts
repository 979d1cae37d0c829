import { expect } from "@playwright/test";
import type { Page } from "@playwright/test";

import { DEMO_WORKBOOKS } from "../../packages/contracts/src/demo.ts";
import { BASE_URL, E2E_ANALYTICS_PORT } from "./env.ts";

export const ANALYTICS_ORIGIN = `http://127.0.0.1:${E2E_ANALYTICS_PORT}`;

/** The demo catalogue in the order the API lists it, with the sidebar label each must get. */
export const demoWorkbooks = DEMO_WORKBOOKS.map((workbook, index) => ({
  name: workbook.workbookName,
  label: ["Portfolio Overview", "Tax Center", "Income and Fees"][index]!,
}));
export const [portfolio, taxCenter, incomeAndFees] = demoWorkbooks as [
  (typeof demoWorkbooks)[number],
  (typeof demoWorkbooks)[number],
  (typeof demoWorkbooks)[number],
];

/**
 * `npm start` brings the analytics server up only once the portal answers, and it seeds its demo data
 * first: the journeys that open a frame wait until it answers (polling, no fixed sleep).
 */
export async function waitForAnalyticsServer() {
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${ANALYTICS_ORIGIN}/healthz`)).status;
        } catch {
          return 0;
        }
      },
      { message: "the built-in analytics server answers /healthz", timeout: 170_000, intervals: [500, 1000] },
    )
    .toBe(200);
}

/** The workbook area of the user shell; `data-embed-state` tells where the embed is in its life. */
export function workbookArea(page: Page) {
  return page.locator("[data-embed-state]");
}

export function workbookFrame(page: Page, label: string) {
  return page.locator(`iframe[title="${label} workbook"]`);
}

export function sidebarWorkbooks(page: Page) {
  return page.getByRole("navigation", { name: "Workbooks" }).getByRole("link");
}

/** Waits until the frame has reported `workbook:loaded` (the view's skeleton is gone). */
export async function expectWorkbookLoaded(page: Page, label: string) {
  await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "loaded", { timeout: 30_000 });
  await expect(page.getByTestId("workbook-skeleton")).toHaveCount(0);
  await expect(workbookFrame(page, label)).toBeVisible();
  await expect(
    workbookFrame(page, label).contentFrame().getByRole("heading", { level: 1, name: label }),
  ).toBeVisible();
}

/** The `:jwt` of the URL the frame was opened with. */
export async function frameToken(page: Page, label: string) {
  const src = await workbookFrame(page, label).getAttribute("src");
  const token = src ? new URL(src).searchParams.get(":jwt") : null;
  expect(token, `the frame's URL ${src} carries a token`).toBeTruthy();
  return token!;
}

/** Mints an embed URL with the page's session, as the view does (the browser would send Origin). */
export async function mintEmbedUrl(page: Page, workbookName: string) {
  const response = await page.request.post("/api/sigma/provision-and-embed", {
    data: { workbookId: workbookName },
    headers: { Origin: BASE_URL },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { embedUrl: string }).embedUrl;
}

/** An embed URL that has already been opened once: the analytics server refuses it (EINVAL), as Sigma does. */
export async function consumedEmbedUrl(page: Page, workbookName: string) {
  const url = await mintEmbedUrl(page, workbookName);
  const first = await page.request.get(url);
  expect(first.status(), "the first visit of a new embed URL opens the workbook").toBe(200);
  const again = await page.request.get(url);
  expect(again.status(), "a second visit is refused").toBe(401);
  return url;
}

/**
 * Answers the view's embed requests with `answers` in order (an URL as the server would, or an error),
 * then lets the real server answer. Returns how many requests the view made. The start of the page's view
 * (decision 024) then brings the list without a URL, as it does over the per-person limit, so that the
 * view's first frame is minted by the requests scripted here.
 */
export async function scriptEmbedAnswers(
  page: Page,
  answers: Array<{ embedUrl: string } | { status: number; body: string }>,
) {
  await page.route("**/api/me/workbook-start*", async (route) => {
    const response = await route.fetch();
    return route.fulfill({ response, json: { ...(await response.json()), embedUrl: null } });
  });
  let calls = 0;
  await page.route("**/api/sigma/provision-and-embed", async (route) => {
    const answer = answers[calls++];
    if (!answer) return route.continue();
    if ("embedUrl" in answer) return route.fulfill({ json: answer });
    return route.fulfill({ status: answer.status, contentType: "application/json", body: answer.body });
  });
  return { calls: () => calls };
}
