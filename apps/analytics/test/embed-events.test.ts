/**
 * The frame's events as Sigma documents them, in Chromium through a stand-in host page: the session ending,
 * a data request that cannot connect, `url:onchange`, `workbook:fullscreen:update`, and control values in
 * Sigma's URL-encoded form in both directions.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ZSigmaTeamSchema, ZSigmaWorkbookSchema, pageOf } from "@portal/sigma";
import { HostPage, events, launchChromium, waitForEvent } from "./browser-harness.ts";
import {
  CLIENT_A,
  CONTROL_VALUES_WORKBOOK,
  PORTFOLIO,
  clientUser,
  mint,
  restCaller,
  startTestServer,
  type TestServer,
} from "./helpers.ts";

let t: TestServer;
let host: HostPage;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let call: ReturnType<typeof restCaller>;

beforeAll(async () => {
  host = await HostPage.start();
  t = await startTestServer({ allowedParentOrigins: [host.origin] });
  call = restCaller(() => t.server);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await host?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1300, height: 950 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

/** Posts a message into the frame as the host page (the SDK's mutation shapes). */
const post = (p: Page, message: unknown) =>
  p.evaluate((m) => (window as unknown as { __post: (m: unknown) => void }).__post(m), message);

const types = async (p: Page) => (await events(p)).map((e) => e.type);

describe("the frame's events", () => {
  it("replaces the workbook with the code-less 'Session expired. Reload the page.' once the JWT's exp has passed, posting no workbook:error", async () => {
    const { url, expiresAt } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!), {
      lifetimeSeconds: 3,
    });
    await page.goto(host.url(url));
    await waitForEvent(page, "workbook:dataloaded");
    const frame = page.frameLocator("#embed");
    await expect.poll(() => frame.locator("section[data-element-id=holdings]").count()).toBe(1);
    // The session lasts as long as the token: once its exp has passed, the next data request ends it.
    await expect
      .poll(() => Date.now() > expiresAt.getTime() + 500, { timeout: 10_000, interval: 250 })
      .toBe(true);
    await post(page, { type: "workbook:variables:update", variables: { Period: "qtd" } });
    await expect
      .poll(() => frame.locator("[role=alert]").textContent(), { timeout: 15_000 })
      .toBe("Session expired. Reload the page.");
    expect(await frame.locator("section[data-element-id]").count()).toBe(0);
    expect(await types(page)).not.toContain("workbook:error");
  });

  it("posts workbook:error NETWORK when the page's data request cannot connect", async () => {
    const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!));
    await page.goto(host.url(url));
    await waitForEvent(page, "workbook:dataloaded");
    await context.route("**/api/embed/query", (route) => route.abort("internetdisconnected"));
    await post(page, { type: "workbook:variables:update", variables: { Period: "qtd" } });
    const error = await waitForEvent(page, "workbook:error");
    expect(error).toMatchObject({ type: "workbook:error", code: "NETWORK" });
    expect(typeof error.message).toBe("string");
  });

  it("posts url:onchange with the embed's path only: no query, never :jwt", async () => {
    const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!), {
      pageId: "overview",
      ui: { theme: "Dark", responsive_height: true },
      controls: { Period: "ytd" },
    });
    await page.goto(host.url(url));
    const change = await waitForEvent(page, "url:onchange");
    expect(change.url).toBe(`/local/workbook/${PORTFOLIO!.workbookName}/page/overview`);
  });

  it("workbook:fullscreen:update toggles: it maximises the element, and restores it when it is maximised", async () => {
    const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!));
    await page.goto(host.url(url));
    await waitForEvent(page, "workbook:dataloaded");
    const frame = page.frameLocator("#embed");
    await post(page, { type: "workbook:fullscreen:update", nodeId: "growth" });
    expect(await waitForEvent(page, "workbook:fullscreen:onchange")).toMatchObject({ fullScreen: true });
    await expect
      .poll(() => frame.locator("section.wb-fullscreen").getAttribute("data-element-id"))
      .toBe("growth");
    await post(page, { type: "workbook:fullscreen:update", nodeId: "growth" });
    expect(await waitForEvent(page, "workbook:fullscreen:onchange", 1)).toMatchObject({ fullScreen: false });
    await expect.poll(() => frame.locator("section.wb-fullscreen").count()).toBe(0);
    // Another element while one is maximised: that one instead.
    await post(page, { type: "workbook:fullscreen:update", nodeId: "growth" });
    await waitForEvent(page, "workbook:fullscreen:onchange", 2);
    await post(page, { type: "workbook:fullscreen:update", nodeId: "holdings" });
    await expect
      .poll(() => frame.locator("section.wb-fullscreen").getAttribute("data-element-id"))
      .toBe("holdings");
  });

  it("control values are URL-encoded strings in workbook:loaded, workbook:variables:onchange, :current and :update (commas, spaces, ranges, dates, non-ASCII)", async () => {
    const workbooks = pageOf(ZSigmaWorkbookSchema).parse((await call("GET", "/v2/workbooks")).body);
    const inode = workbooks.entries.find((w) => CONTROL_VALUES_WORKBOOK.endsWith(`-${w.workbookUrlId}`))!;
    const [team] = z
      .array(ZSigmaTeamSchema)
      .parse((await call("GET", `/v2/teams?name=${encodeURIComponent(PORTFOLIO!.teamName)}`)).body);
    const grant = { grantee: { teamId: team!.teamId }, permission: "view", inodeId: inode.workbookId };
    expect((await call("POST", "/v2/grants", grant)).status).toBe(200);

    const { url } = await mint(t.server, CONTROL_VALUES_WORKBOOK, clientUser(CLIENT_A!));
    const controls =
      "&Entity=Smith%2C%20Jones%20%26%20Co&Entities=Zo%C3%AB%20Ltd,Plain&Period=min:2026-10-01,max:2026-10-30";
    await page.goto(host.url(`${url}${controls}`));
    const loaded = await waitForEvent(page, "workbook:loaded");
    expect(loaded.workbook).toEqual({
      variables: {
        Entity: "Smith%2C%20Jones%20%26%20Co",
        Entities: "Zo%C3%AB%20Ltd,Plain",
        Period: "min:2026-10-01,max:2026-10-30",
      },
    });
    await waitForEvent(page, "workbook:dataloaded");
    const frame = page.frameLocator("#embed");
    const cell = (column: number) =>
      frame.locator(`section[data-element-id=picked] tbody tr td:nth-child(${column})`).textContent();
    await expect.poll(() => cell(2)).toContain("Zoë Ltd | Plain");

    // The viewer picks a value: posted encoded.
    await frame.locator("select[data-control-id=Entity]").selectOption("Zoë Ltd");
    const picked = await waitForEvent(page, "workbook:variables:onchange");
    expect(picked.workbook).toMatchObject({ variables: { Entity: "Zo%C3%AB%20Ltd" } });
    await expect.poll(() => cell(1)).toContain("Zoë Ltd");

    // The host sets values in the same format: a list with a comma inside a value, a range.
    await post(page, {
      type: "workbook:variables:update",
      variables: { Entities: "Plain,Smith%2C%20Jones%20%26%20Co", Period: "min:2026-09-01,max:" },
    });
    const updated = await waitForEvent(page, "workbook:variables:onchange", 1);
    expect(updated.workbook).toMatchObject({
      variables: { Entities: "Plain,Smith%2C%20Jones%20%26%20Co", Period: "min:2026-09-01,max:" },
    });
    await expect.poll(() => cell(2)).toContain("Plain | Smith, Jones & Co");
    await expect.poll(() => cell(3)).toContain("2026");

    await post(page, { type: "workbook:variables:list" });
    const current = await waitForEvent(page, "workbook:variables:current");
    expect(current.variables).toMatchObject({
      Entity: "Zo%C3%AB%20Ltd",
      Entities: "Plain,Smith%2C%20Jones%20%26%20Co",
      Period: expect.stringMatching(/^min:2026-09-01,max:\d{4}-\d{2}-\d{2}$/),
    });
    expect(await types(page)).not.toContain("workbook:error");
  });
});
