/**
 * The frame with server-drawn charts (decision 015), in Chromium: the first answer brings the charts drawn for
 * the frame, the page's script stays within its budget, the tooltips show the figures under the pointer,
 * and full screen draws the chart again at its full-screen size.
 */
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Frame, Page, Request } from "@playwright/test";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PageData } from "../src/embed/boot.ts";
import { formatValue } from "../src/workbooks/format.ts";
import { HostPage, launchChromium, waitForEvent } from "./browser-harness.ts";
import { CLIENT_A, PORTFOLIO, clientUser, mint, startTestServer, type TestServer } from "./helpers.ts";

let t: TestServer;
let host: HostPage;
let browser: Browser;
let context: BrowserContext;
let page: Page;

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
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

async function open(): Promise<{ frame: Frame; data: PageData }> {
  let html = "";
  page.on("response", (r) => {
    if (r.url().includes("/workbook/") && r.status() === 200) void r.text().then((text) => (html = text));
  });
  const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!), {
    ui: { responsive_height: true },
  });
  await page.goto(host.url(url, { width: 1440, height: 900 }));
  await waitForEvent(page, "workbook:dataloaded");
  const frame = page.frames().find((f) => f.url().includes("/workbook/"));
  if (!frame) throw new Error("no workbook frame");
  await expect.poll(() => html).toContain("embed-boot");
  const boot = JSON.parse(/id="embed-boot">(.*?)<\/script>/s.exec(html)![1]!) as { initialData: PageData };
  return { frame, data: boot.initialData };
}

/** The drawing's size for each chart box, and the box's. */
const drawings = (frame: Frame) =>
  frame.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>(".wb-chart")).map((c) => ({
      id: c.dataset.elementId,
      box: `0 0 ${Math.floor(c.getBoundingClientRect().width)} ${Math.floor(c.getBoundingClientRect().height)}`,
      drawn: c.querySelector(".wb-chart-svg > svg")?.getAttribute("viewBox"),
    })),
  );

describe("server-drawn charts in the frame", () => {
  it("come drawn for the frame with the first page's data; the page's script is small and asks for nothing more", async () => {
    const requests: Request[] = [];
    page.on("request", (r) => requests.push(r));
    const scripts: { url: string; gzip: number }[] = [];
    page.on("response", async (r) => {
      if (r.request().resourceType() !== "script") return;
      const body = await r.body().catch(() => null);
      if (body) scripts.push({ url: r.url(), gzip: gzipSync(body, { level: 9 }).length });
    });
    const { frame, data } = await open();

    // The layout report went out from the skeleton and the first answer carried every chart, drawn for its
    // box: no data request, no chart request.
    const api = requests.map((r) => new URL(r.url()).pathname).filter((p) => p.includes("/api/embed/"));
    expect(api).toEqual([`/${t.server.config.orgSlug}/api/embed/layout`]);
    expect(Object.keys(data.charts).sort()).toEqual(
      ["allocation", "allocation-vs-target", "growth", "returns-vs-benchmark", "value-history"].sort(),
    );
    const shown = await drawings(frame);
    expect(shown).toHaveLength(5);
    for (const d of shown) expect(d.drawn, d.id).toBe(d.box);
    // Each chart is an image named by what it shows.
    const label = await frame.locator(".wb-chart[data-element-id=growth]").getAttribute("aria-label");
    expect(label).toMatch(/^Growth of \$100 vs benchmark\. \d+ points from /);
    expect(await frame.locator(".wb-chart[data-element-id=growth]").getAttribute("role")).toBe("img");

    // The budget for the analytics page's JavaScript (ECharts stays on the server).
    await expect.poll(() => scripts.length).toBeGreaterThan(0);
    const frameScripts = scripts.filter((s) => new URL(s.url).origin === new URL(frame.url()).origin);
    const total = frameScripts.reduce((n, s) => n + s.gzip, 0);
    expect(total).toBeGreaterThan(20 * 1024);
    expect(total).toBeLessThanOrEqual(150 * 1024);
  });

  it("shows the figures under the pointer: the day and both series on a line chart, the slice on a pie", async () => {
    const { frame, data } = await open();
    const rows = data.elements.growth!.rows;
    const chart = frame.locator(".wb-chart[data-element-id=growth]");
    const box = (await chart.boundingBox())!;
    const tip = frame.locator(".wb-chart[data-element-id=growth] .wb-tip");
    const dates = rows.map((r) => formatValue(r.value_date, "date"));

    const at = async (fraction: number) => {
      await page.mouse.move(box.x + box.width * fraction, box.y + box.height * 0.5);
      await tip.waitFor({ state: "visible" });
      const head = await tip.locator(".wb-tip-head").textContent();
      const index = dates.indexOf(head ?? "");
      expect(index, `${head} is a day of the chart`).toBeGreaterThanOrEqual(0);
      const lines = await tip.locator(".wb-tip-line").allTextContents();
      const row = rows[index]!;
      expect(lines).toEqual([
        `Portfolio${formatValue(row.portfolio, "number")}`,
        `Benchmark${formatValue(row.benchmark, "number")}`,
      ]);
      // The pointer's line and a dot on each line.
      expect(await chart.locator(".wb-chart-pointer line").count()).toBe(1);
      expect(await chart.locator(".wb-chart-pointer circle").count()).toBe(2);
      return index;
    };
    const left = await at(0.3);
    const right = await at(0.8);
    expect(right).toBeGreaterThan(left);
    await page.mouse.move(box.x + box.width / 2, box.y - 40);
    await expect.poll(() => tip.count()).toBe(0);

    // A slice of the allocation ring (ECharts' SSR client names it).
    const pie = frame.locator(".wb-chart[data-element-id=allocation]");
    // A point inside the first slice, in the frame's coordinates (the test's frame is not sized to the page).
    await pie.scrollIntoViewIfNeeded();
    const inside = await pie
      .locator("path[ecmeta_ssr_type=chart]")
      .first()
      .evaluate((el) => {
        const path = el as SVGPathElement;
        const b = path.getBBox();
        for (let y = b.y; y < b.y + b.height; y += 4) {
          for (let x = b.x; x < b.x + b.width; x += 4) {
            if (!path.isPointInFill(new DOMPoint(x, y))) continue;
            const p = new DOMPoint(x, y).matrixTransform(path.getScreenCTM()!);
            return { x: p.x, y: p.y };
          }
        }
        return null;
      });
    const frameBox = (await page.locator("#embed").boundingBox())!;
    await page.mouse.move(frameBox.x + inside!.x, frameBox.y + inside!.y);
    await page.mouse.move(frameBox.x + inside!.x + 1, frameBox.y + inside!.y + 1);
    const pieTip = pie.locator(".wb-tip");
    await pieTip.waitFor({ state: "visible" });
    const rowsPie = data.elements.allocation!.rows;
    const total = rowsPie.reduce((s, r) => s + Number(r.market_value), 0);
    const texts = rowsPie.map(
      (r) =>
        `${String(r.asset_class)}${formatValue(r.market_value, "currency0")} (${formatValue(Number(r.market_value) / total, "percent")})`,
    );
    expect(texts).toContain(await pieTip.textContent());
  });

  it("switches a series off and on from the legend, as ECharts' legend does", async () => {
    const { frame } = await open();
    const chart = frame.locator(".wb-chart[data-element-id=growth]");
    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/embed/query")) asked.push(r.postData() ?? "");
    });
    const lines = () => chart.locator(".wb-chart-svg path[fill=none][stroke]").count();
    const drawnBefore = await chart.locator(".wb-chart-svg svg").innerHTML();
    // The legend item "Benchmark": its hit area is the legend path ECharts' SSR client names.
    const benchmark = chart
      .locator('.wb-chart-svg path[ecmeta_ssr_type=legend][ecmeta_series_index="1"]')
      .last();
    await benchmark.click();
    await expect.poll(() => asked.length).toBe(1);
    expect(JSON.parse(asked[0]!)).toMatchObject({ elements: ["growth"], sizes: { growth: { off: [1] } } });
    await expect
      .poll(async () => (await chart.locator(".wb-chart-svg svg").innerHTML()) !== drawnBefore)
      .toBe(true);
    // The tooltip names only the series still shown.
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    const tip = chart.locator(".wb-tip");
    await tip.waitFor({ state: "visible" });
    const names = await tip.locator(".wb-tip-line span:not(.wb-tip-swatch)").allTextContents();
    expect(names).toEqual(["Portfolio"]);
    expect(await lines()).toBeGreaterThan(0);
    // On again: the first drawing comes back without asking the server.
    await benchmark.click();
    await expect.poll(() => chart.locator(".wb-chart-svg svg").innerHTML()).toBe(drawnBefore);
    expect(asked).toHaveLength(1);
  });

  it("draws a chart again at its full-screen size, and goes back to the drawing it had", async () => {
    const { frame } = await open();
    const before = (await drawings(frame)).find((d) => d.id === "growth")!;
    const queries: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/embed/query")) queries.push(r.postData() ?? "");
    });
    await page.evaluate(() =>
      (window as unknown as { __post: (m: unknown) => void }).__post({
        type: "workbook:fullscreen:update",
        nodeId: "growth",
      }),
    );
    await expect
      .poll(async () => {
        const d = (await drawings(frame)).find((x) => x.id === "growth")!;
        return d.drawn === d.box && d.box !== before.box;
      })
      .toBe(true);
    // Only the full-screen chart was asked for.
    expect(queries).toHaveLength(1);
    expect(JSON.parse(queries[0]!)).toMatchObject({ elements: ["growth"] });
    const full = (await drawings(frame)).find((d) => d.id === "growth")!;
    expect(Number(full.box.split(" ")[2])).toBeGreaterThan(1300);

    await page.evaluate(() =>
      (window as unknown as { __post: (m: unknown) => void }).__post({
        type: "workbook:fullscreen:update",
        nodeId: null,
      }),
    );
    await expect.poll(async () => (await drawings(frame)).find((d) => d.id === "growth")).toEqual(before);
    expect(queries).toHaveLength(1);
  });
});
