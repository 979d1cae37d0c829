import type { Browser, BrowserContext, Page, Response } from "@playwright/test";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { QueryResult } from "../src/workbooks/run.ts";
import { HostPage, events, launchChromium, waitForEvent } from "./browser-harness.ts";
import {
  CLIENT_A,
  CLIENT_B,
  DEMO_EMPLOYEE,
  PORTFOLIO,
  TAX,
  TEST_AS_OF,
  clientUser,
  employeeUser,
  mint,
  startTestServer,
  type TestServer,
} from "./helpers.ts";

let t: TestServer;
let host: HostPage;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];

beforeAll(async () => {
  host = await HostPage.start();
  t = await startTestServer({ allowedParentOrigins: [host.origin] });
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
  problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
});
afterEach(async () => {
  await context?.close();
});

/** Collects the data the embed page fetched: the first page's data comes with the page, later data by query. */
function captureQueries(p: Page): QueryResult[] {
  const out: QueryResult[] = [];
  p.on("response", (r: Response) => {
    if (r.url().includes("/workbook/") && r.status() === 200) {
      r.text().then(
        (html) => {
          const boot = /id="embed-boot">(.*?)<\/script>/s.exec(html)?.[1];
          const data = boot ? (JSON.parse(boot) as { initialData?: QueryResult }).initialData : undefined;
          if (data) out.push(data);
        },
        () => undefined,
      );
    }
    if (r.url().endsWith("/api/embed/query") && r.status() === 200) {
      // A response still being read when the page closes is simply not collected.
      r.json().then(
        (j: QueryResult) => out.push(j),
        () => undefined,
      );
    }
  });
  return out;
}

async function ownerTotalValue(clientId: string): Promise<number> {
  const res = await t.db.query<{ v: number }>(
    "select sum(amount)::float8 + coalesce((select sum(l.remaining_quantity * p.close) from demo.tax_lots l join demo.prices p on p.security_id = l.security_id and p.price_date = $2::date where l.client_id = $1), 0)::float8 as v from demo.transactions where client_id = $1",
    [clientId, TEST_AS_OF],
  );
  return res.rows[0]?.v as number;
}

describe("embed in Chromium", () => {
  it("renders the workbook and posts workbook:loaded then workbook:dataloaded; the same URL again fails with EINVAL", async () => {
    const queries = captureQueries(page);
    const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!), {
      ui: { theme: "Dark", responsive_height: true },
    });
    await page.goto(host.url(url));
    await waitForEvent(page, "workbook:dataloaded");
    const seen = await events(page);
    const loaded = seen.findIndex((e) => e.type === "workbook:loaded");
    const dataLoaded = seen.findIndex((e) => e.type === "workbook:dataloaded");
    expect(loaded).toBeGreaterThanOrEqual(0);
    expect(dataLoaded).toBeGreaterThan(loaded);
    expect(seen.some((e) => e.type === "workbook:error")).toBe(false);

    const frame = page.frameLocator("#embed");
    await expect.poll(() => frame.locator("h1").textContent()).toBe("Portfolio Overview");
    expect(await frame.locator("html").getAttribute("data-theme")).toBe("dark");
    // Charts are ECharts SVGs with a description; tables are real tables.
    expect(await frame.locator(".wb-chart[data-element-id=growth] svg").count()).toBe(1);
    const label = await frame
      .locator("section[data-element-id=growth] [aria-label]:not(button)")
      .first()
      .getAttribute("aria-label");
    expect(label).toContain("Growth of $100 vs benchmark");
    expect(
      await frame.locator("section[data-element-id=holdings] table th[scope=col]").count(),
    ).toBeGreaterThan(5);
    expect(await frame.locator("section[data-element-id=holdings] tbody tr").count()).toBeGreaterThan(3);
    // The token is gone from the frame's URL once loaded.
    const frameUrl =
      page
        .frames()
        .find((f) => f.url().includes("/workbook/"))
        ?.url() ?? "";
    expect(frameUrl).not.toContain(":jwt");

    const height = await waitForEvent(page, "workbook:pageheight:onchange");
    expect(height.pageHeight).toBeGreaterThan(800);

    await expect.poll(() => queries.length).toBeGreaterThan(0);
    const total = queries[0]!.elements["total-value"]!.rows[0]!.value as number;
    expect(total).toBeCloseTo(await ownerTotalValue(CLIENT_A!.clientId), 2);
    expect(problems).toEqual([]);

    // Second visit of the very same URL.
    const second = await context.newPage();
    await second.goto(host.url(url));
    const error = await waitForEvent(second, "workbook:error");
    expect(error).toMatchObject({ code: "EINVAL" });
    expect(await second.frameLocator("#embed").locator("[role=alert]").textContent()).toContain(
      "already been used",
    );
  });

  it("shows client A only client A's numbers", async () => {
    const queries = captureQueries(page);
    await page.goto(host.url((await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!))).url));
    await waitForEvent(page, "workbook:dataloaded");
    await expect.poll(() => queries.length).toBeGreaterThan(0);
    const data = queries[0]!;
    const client = data.controls.find((c) => c.id === "Client")!;
    expect(client.options.map((o) => o.value)).toEqual([CLIENT_A!.clientId]);
    expect(client.hidden).toBe(true);
    const accounts = data.controls.find((c) => c.id === "Account")!.options.map((o) => o.value);
    expect(accounts.filter((a) => a !== "all").every((a) => a.startsWith(`${CLIENT_A!.clientId}-`))).toBe(
      true,
    );
    const json = JSON.stringify(data);
    expect(json).not.toContain(CLIENT_B!.clientId);
    expect(json).not.toContain(CLIENT_B!.lastName);
    const total = data.elements["total-value"]!.rows[0]!.value as number;
    expect(total).not.toBeCloseTo(await ownerTotalValue(CLIENT_B!.clientId), 0);

    // Tampering with the URL's control value does not reach another client.
    const tampered = captureQueries(page);
    const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!), {
      controls: { Client: CLIENT_B!.clientId, Account: `${CLIENT_B!.clientId}-01` },
    });
    await page.goto(host.url(url));
    await waitForEvent(page, "workbook:dataloaded");
    await expect.poll(() => tampered.length).toBeGreaterThan(0);
    expect(JSON.stringify(tampered[0])).not.toContain(CLIENT_B!.clientId);
    expect(tampered[0]!.variables.Client).toBe(CLIENT_A!.clientId);
  });

  it("shows an embed user with no client attribute no rows", async () => {
    const queries = captureQueries(page);
    const user = { ...clientUser(CLIENT_A!), email: "no.attributes@example.com", userAttributes: {} };
    await page.goto(host.url((await mint(t.server, TAX!.workbookName, user)).url));
    await waitForEvent(page, "workbook:dataloaded");
    await expect.poll(() => queries.length).toBeGreaterThan(0);
    const data = queries[0]!;
    expect(data.controls.find((c) => c.id === "Client")!.options).toEqual([]);
    for (const id of ["harvest-candidates", "realized-lots", "estimate-breakdown"]) {
      expect(data.elements[id]!.rows, id).toEqual([]);
    }
    expect(data.elements["short-term"]!.rows[0]).toMatchObject({ net: 0, gains: 0, losses: 0 });
    expect(data.elements["estimated-tax"]!.rows[0]).toMatchObject({ total_tax: 0 });
  });

  it("gives an employee exactly their clients, with a client selector", async () => {
    const queries = captureQueries(page);
    await page.goto(host.url((await mint(t.server, TAX!.workbookName, employeeUser())).url));
    await waitForEvent(page, "workbook:dataloaded");
    await expect.poll(() => queries.length).toBeGreaterThan(0);
    const client = queries[0]!.controls.find((c) => c.id === "Client")!;
    expect(client.options.map((o) => o.value)).toEqual(["all", ...DEMO_EMPLOYEE.clientIds]);
    expect(client.hidden).toBe(false);
    const candidates = queries[0]!.elements["harvest-candidates"]!.rows.map((r) => r.client);
    const names = new Set(candidates);
    for (const n of names) {
      expect([
        `${CLIENT_A!.firstName} ${CLIENT_A!.lastName}`,
        `${CLIENT_B!.firstName} ${CLIENT_B!.lastName}`,
      ]).toContain(n);
    }
    const select = page.frameLocator("#embed").locator("select[data-control-id=Client]");
    expect(await select.locator("option").count()).toBe(3);
    const before = (await events(page)).length;
    await select.selectOption(CLIENT_B!.clientId);
    const change = await waitForEvent(page, "workbook:variables:onchange");
    expect(change.workbook).toMatchObject({ variables: { Client: CLIENT_B!.clientId } });
    await waitForEvent(page, "workbook:dataloaded", 1);
    expect((await events(page)).length).toBeGreaterThan(before);
    // The response is read asynchronously on this side: wait for it rather than for a fixed time.
    await expect.poll(() => queries[queries.length - 1]?.variables.Client).toBe(CLIENT_B!.clientId);
    const last = queries[queries.length - 1]!;
    expect(JSON.stringify(last.elements)).not.toContain(`${CLIENT_A!.firstName} ${CLIENT_A!.lastName}`);
  });

  it("accepts workbook:variables:update and workbook:variables:list from the host", async () => {
    const queries = captureQueries(page);
    await page.goto(host.url((await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!))).url));
    await waitForEvent(page, "workbook:dataloaded");
    // Before any change: the values the first page was computed with (defaults resolved by the server).
    await page.evaluate(() =>
      (window as unknown as { __post: (m: unknown) => void }).__post({ type: "workbook:variables:list" }),
    );
    const initial = await waitForEvent(page, "workbook:variables:current");
    expect(initial.variables).toMatchObject({
      Client: CLIENT_A!.clientId,
      Period: expect.stringMatching(/^min:\d{4}-\d{2}-\d{2},max:\d{4}-\d{2}-\d{2}$/),
    });
    await page.evaluate(() =>
      (window as unknown as { __post: (m: unknown) => void }).__post({
        type: "workbook:variables:update",
        variables: { Period: "min:2026-10-01,max:2026-10-31" },
      }),
    );
    const change = await waitForEvent(page, "workbook:variables:onchange");
    expect(change.workbook).toMatchObject({ variables: { Period: "min:2026-10-01,max:2026-10-31" } });
    await waitForEvent(page, "workbook:dataloaded", 1);
    await expect
      .poll(() => queries[queries.length - 1]?.variables.Period)
      .toBe("min:2026-10-01,max:2026-10-31");
    await page.evaluate(() =>
      (window as unknown as { __post: (m: unknown) => void }).__post({ type: "workbook:variables:list" }),
    );
    const current = await waitForEvent(page, "workbook:variables:current", 1);
    expect(current.variables).toMatchObject({
      Period: "min:2026-10-01,max:2026-10-31",
      Client: CLIENT_A!.clientId,
    });
  });

  it("posts workbook:error EACCES for a workbook not shared with the user's teams", async () => {
    const user = clientUser(CLIENT_A!, [PORTFOLIO!.teamName]);
    await page.goto(host.url((await mint(t.server, TAX!.workbookName, user)).url));
    const error = await waitForEvent(page, "workbook:error");
    expect(error).toMatchObject({ code: "EACCES" });
  });
});
