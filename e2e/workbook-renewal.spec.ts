import type { Browser, Page } from "@playwright/test";

import { E2E_SHORT_SESSION_ANALYTICS_PORT, E2E_SHORT_SESSION_PORT } from "./support/env.ts";
import { accounts, expect, test } from "./support/fixtures.ts";
import { startPortalInstance } from "./support/portal-instance.ts";
import type { TPortalInstance } from "./support/portal-instance.ts";
import { expectWorkbookLoaded, portfolio, workbookArea, workbookFrame } from "./support/workbooks-helpers.ts";

/**
 * A workbook left open past its embed session (the token's `exp - iat`, SIGMA_EMBED_SESSION_SECONDS). The
 * suite's server uses the default hour, so this journey starts a portal of its own with the shortest
 * session the portal allows, a minute: the frame is renewed about 15 s before the end (a quarter of the
 * session); past `exp` the analytics service shows its code-less "Session expired" page.
 *
 * Three clients at once, to keep it to one session's length: one whose frame is renewed, one whose
 * renewal the portal API refuses, and one whose portal session ends before the renewal.
 */
const SESSION_SECONDS = 60;

let portal: TPortalInstance | undefined;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  portal = await startPortalInstance({
    name: "short-sessions",
    port: E2E_SHORT_SESSION_PORT,
    analyticsPort: E2E_SHORT_SESSION_ANALYTICS_PORT,
    env: { SIGMA_EMBED_SESSION_SECONDS: String(SESSION_SECONDS) },
  });
  // One workbook page opened before the journey: a new server's first page takes longer than the view's
  // load timeout on a busy machine, and the first load is not what this journey is about.
  const request = await playwright.request.newContext({ baseURL: portal.url });
  const signedIn = await request.post("/api/auth/sign-in/email", {
    data: { email: accounts.client.email, password: accounts.client.password },
    headers: { Origin: portal.url },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  const minted = await request.post("/api/sigma/provision-and-embed", {
    data: { workbookId: portfolio.name },
    headers: { Origin: portal.url },
  });
  expect(minted.status(), await minted.text()).toBe(200);
  const { embedUrl } = (await minted.json()) as { embedUrl: string };
  expect((await request.get(embedUrl, { timeout: 60_000 })).status()).toBe(200);
  await request.dispose();
});

test.afterAll(async () => {
  await portal?.stop();
});

type TClaims = { iat: number; exp: number; jti: string };

function claimsOf(src: string): TClaims {
  const token = new URL(src).searchParams.get(":jwt") ?? "";
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as TClaims;
}

/** What the page showed in the workbook area, frame by painted frame (an init script, top window only). */
type TAreaRecord = { samples: number; blank: string[]; failed: number; srcs: string[] };

function recordWorkbookArea() {
  if (window !== window.top) return;
  const record: TAreaRecord = { samples: 0, blank: [], failed: 0, srcs: [] };
  (window as unknown as { areaRecord: TAreaRecord }).areaRecord = record;
  const visible = (element: Element | null | undefined) => {
    if (!element) return false;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return box.width > 0 && box.height > 0 && style.visibility === "visible" && Number(style.opacity) > 0;
  };
  const sample = () => {
    const area = document.querySelector<HTMLElement>("[data-embed-state]");
    if (area) {
      record.samples += 1;
      const frame = area.querySelector("iframe[data-embed-key]:not([data-renewal])");
      const covered =
        visible(area.querySelector('[data-testid="workbook-skeleton"]')) ||
        visible(area.querySelector('[role="alert"]'));
      if (!covered && !visible(frame)) record.blank.push(`${Date.now()} ${area.dataset.embedState}`);
      if (area.dataset.embedState === "failed") record.failed += 1;
      const src = frame?.getAttribute("src");
      if (src && record.srcs.at(-1) !== src) record.srcs.push(src);
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}

const areaRecord = (page: Page) =>
  page.evaluate(() => (window as unknown as { areaRecord: TAreaRecord }).areaRecord);

/** Starts the record afresh, from the frame now shown. */
const restartAreaRecord = (page: Page) =>
  page.evaluate(() => {
    const record = (window as unknown as { areaRecord: TAreaRecord }).areaRecord;
    Object.assign(record, { samples: 0, blank: [], failed: 0, srcs: record.srcs.slice(-1) });
  });

/**
 * Reads the text of the frame on screen every quarter second until `stop` resolves: the analytics
 * service's "Session expired" page must never be what the person sees (the skeleton or the portal's own
 * message may cover a frame whose session has ended).
 */
async function watchForExpiredPage(page: Page, stop: Promise<unknown>) {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  let reads = 0;
  const shown: string[] = [];
  while (!stopped) {
    try {
      const covered = await page
        .locator('[data-embed-state] [data-testid="workbook-skeleton"], [data-embed-state] [role="alert"]')
        .count();
      const frame = await (await page.$("iframe[data-embed-key]:not([data-renewal])"))?.contentFrame();
      const text = frame ? await frame.evaluate(() => document.body?.innerText ?? "") : "";
      reads += 1;
      if (/session expired/i.test(text) && covered === 0) shown.push(text.slice(0, 200));
    } catch {
      // The frame was replaced while it was read.
    }
    await page.waitForTimeout(250);
  }
  return { reads, shown };
}

/**
 * Waits for the workbook to be shown. On a busy machine a load can outlast the view's load timers (9 s in
 * all, 4 s after the frame's page loaded; the suite's other workbook journeys meet them too); that is not
 * what this journey is about, so after either failure it tries again, once.
 */
async function expectLoaded(page: Page) {
  const area = workbookArea(page);
  await expect(area).toHaveAttribute("data-embed-state", /loaded|failed/, { timeout: 30_000 });
  if ((await area.getAttribute("data-embed-state")) === "failed") {
    await expect(page.getByRole("alert")).toContainText(
      /The workbook is taking too long to load\.|The analytics service did not open this workbook\./,
    );
    await page.getByRole("button", { name: "Try again" }).click();
  }
  await expectWorkbookLoaded(page, portfolio.label);
}

type TClient = {
  page: Page;
  /** Statuses of the page's embed URL requests once the workbook was shown, in order. */
  mints: number[];
  /** When the URL of the frame first shown arrived (test clock). */
  firstMintAt: () => number;
};

/**
 * A client signed in to the journey's portal with the workbook open. `answer` may answer an embed request
 * made after that itself (by its number, from 1) instead of the portal.
 */
async function openWorkbook(
  browser: Browser,
  answer?: (call: number) => { status: number; body: string } | undefined,
): Promise<TClient> {
  const url = portal!.url;
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } });
  await context.addInitScript(recordWorkbookArea);
  const page = await context.newPage();
  const signedIn = await page.request.post("/api/auth/sign-in/email", {
    data: { email: accounts.client.email, password: accounts.client.password },
    headers: { Origin: url },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);

  const mints: number[] = [];
  let shown = false;
  let firstMintAt = 0;
  await page.route("**/api/sigma/provision-and-embed", async (route) => {
    const scripted = shown ? answer?.(mints.length + 1) : undefined;
    if (scripted) {
      mints.push(scripted.status);
      return route.fulfill({ status: scripted.status, contentType: "application/json", body: scripted.body });
    }
    // After the journey its instance stops while the page may still ask: that request is dropped
    // quietly instead of failing whichever test the worker runs next.
    const response = await route.fetch().catch(() => null);
    if (!response) return route.abort().catch(() => undefined);
    if (shown) mints.push(response.status());
    else firstMintAt = Date.now();
    return route.fulfill({ response });
  });
  // The first frame's URL comes with the start of the page's view (decision 024).
  await page.route("**/api/me/workbook-start*", async (route) => {
    const response = await route.fetch().catch(() => null);
    if (!response) return route.abort().catch(() => undefined);
    firstMintAt ||= Date.now();
    return route.fulfill({ response });
  });
  await page.goto("/");
  await expectLoaded(page);
  await restartAreaRecord(page);
  shown = true;
  return { page, mints, firstMintAt: () => firstMintAt };
}

const frameSrc = async (page: Page) => (await workbookFrame(page, portfolio.label).getAttribute("src")) ?? "";

/**
 * Chooses a period in the frame (its "from" date), which the frame reports as Sigma does, e.g.
 * `min:2024-06-15,max:2025-05-30`: a value with a comma and colons that must come back unchanged.
 */
async function choosePeriod(page: Page) {
  const inFrame = workbookFrame(page, portfolio.label).contentFrame();
  const to = await inFrame.getByLabel("Period to").inputValue();
  expect(to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const from = `${Number(to.slice(0, 4)) - 1}-06-15`;
  await inFrame.getByLabel("Period from").fill(from);
  await expect(inFrame.getByLabel("Period from")).toHaveValue(from);
  return { from, value: `min:${from},max:${to}` };
}

test("a workbook left open past its session is renewed in place, keeping the period; a refused renewal ends with Try again; an ended portal session signs out", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const refused = JSON.stringify({ error: "The analytics service is busy. Please try again." });
  // Opened one after the other (three first loads at once can outlast the load timeout on a busy machine),
  // each going on with its own session as soon as it is open.
  const renewedOpen = openWorkbook(browser);
  const unrenewedOpen = renewedOpen.then(() =>
    openWorkbook(browser, (call) => (call === 1 ? { status: 503, body: refused } : undefined)),
  );
  const signedOutOpen = unrenewedOpen.then(() => openWorkbook(browser));

  const renewal = (async () => {
    const renewed = await renewedOpen;
    const { page } = renewed;
    const first = await frameSrc(page);
    const firstClaims = claimsOf(first);
    expect(firstClaims.exp - firstClaims.iat).toBe(SESSION_SECONDS);
    const period = await choosePeriod(page);
    const ended = new Promise<void>((resolve) => {
      // Past the first frame's end (and its analytics session's), with a few seconds to spare.
      const left = renewed.firstMintAt() + SESSION_SECONDS * 1000 + 5_000 - Date.now();
      setTimeout(resolve, left);
    });
    const watch = watchForExpiredPage(page, ended);

    // The frame is renewed: a new one-time URL with a new token, opened with the chosen period exactly
    // as the frame reported it (commas and colons bare).
    await expect
      .poll(() => frameSrc(page), { timeout: SESSION_SECONDS * 1000, intervals: [250] })
      .not.toBe(first);
    const second = await frameSrc(page);
    const secondClaims = claimsOf(second);
    expect(secondClaims.jti).not.toBe(firstClaims.jti);
    expect(secondClaims.iat).toBeGreaterThanOrEqual(firstClaims.iat + 40);
    expect(secondClaims.iat).toBeLessThan(firstClaims.exp);
    expect(second).toContain(`&Period=${period.value}`);
    await expect(workbookFrame(page, portfolio.label).contentFrame().getByLabel("Period from")).toHaveValue(
      period.from,
    );
    await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "loaded");

    await ended;
    const { reads, shown } = await watch;
    expect(shown, "the analytics service's Session expired page was on screen").toEqual([]);
    expect(reads).toBeGreaterThan(20);
    const record = await areaRecord(page);
    expect(record.blank, "moments without a frame, a skeleton or a message").toEqual([]);
    expect(record.failed).toBe(0);
    expect(record.samples).toBeGreaterThan(100);
    expect(record.srcs).toEqual([first, second]);
    expect(renewed.mints).toEqual([200]);
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.locator("iframe")).toHaveCount(1);
  })();

  const refusedRenewal = (async () => {
    const unrenewed = await unrenewedOpen;
    const { page } = unrenewed;
    const period = await choosePeriod(page);
    const src = await frameSrc(page);
    // The renewal is refused: the frame stays, usable, until its session ends; nothing is tried again.
    await expect.poll(() => unrenewed.mints.length, { timeout: SESSION_SECONDS * 1000 }).toBe(1);
    expect(unrenewed.mints).toEqual([503]);
    await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "loaded");
    expect(await frameSrc(page)).toBe(src);
    await expect(page.getByRole("alert")).toHaveCount(0);

    const ended = page.getByRole("alert");
    await expect(ended).toContainText("Your workbook session has ended.", { timeout: 30_000 });
    expect(Date.now() - unrenewed.firstMintAt()).toBeGreaterThan((SESSION_SECONDS - 5) * 1000);
    await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "failed");
    await expect(page.locator("iframe")).toHaveCount(0);
    expect(unrenewed.mints).toHaveLength(1);

    // Try again opens the workbook where the person left it.
    await ended.getByRole("button", { name: "Try again" }).click();
    await expectLoaded(page);
    const [refusedStatus, ...reopened] = unrenewed.mints;
    expect(refusedStatus).toBe(503);
    expect(reopened.length).toBeGreaterThan(0);
    expect(new Set(reopened)).toEqual(new Set([200]));
    expect(await frameSrc(page)).toContain(`&Period=${period.value}`);
    await expect(workbookFrame(page, portfolio.label).contentFrame().getByLabel("Period from")).toHaveValue(
      period.from,
    );
    const record = await areaRecord(page);
    expect(record.blank, "moments without a frame, a skeleton or a message").toEqual([]);
  })();

  const portalSessionEnded = (async () => {
    const signedOut = await signedOutOpen;
    const { page } = signedOut;
    // The portal session ends (signed out elsewhere): the renewal's mint is refused with 401, and the
    // person is sent to sign in, once.
    const signOut = await page.request.post("/api/auth/sign-out", { headers: { Origin: portal!.url } });
    expect(signOut.status()).toBe(200);
    await page.waitForURL(/\/login/, { timeout: SESSION_SECONDS * 1000 });
    expect(signedOut.mints).toEqual([401]);
    await expect(page.getByLabel("Email")).toBeVisible();
  })();

  await Promise.all([renewal, refusedRenewal, portalSessionEnded]);
});
