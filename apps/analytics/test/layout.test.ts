/**
 * Every workbook is readable at 390, 768 and 1440 px: every chart is drawn (by the server, decision 015) for its
 * box, no chart label (the SVG text ECharts draws, as Chromium lays it out) overlaps another, lies on a slice or
 * a bar, or sticks out of its chart, nothing scrolls inside the page and nothing is wider than the frame,
 * and the frame's reported height settles once instead of jumping while the workbook loads.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Frame, Page } from "@playwright/test";
import { DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HostPage, events, launchChromium, waitForEvent } from "./browser-harness.ts";
import { CLIENT_A, clientUser, employeeUser, mint, startTestServer, type TestServer } from "./helpers.ts";

const WIDTHS = [390, 768, 1440] as const;

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

interface LayoutProblem {
  where: string;
  problem: string;
}

/**
 * Runs in the frame: every chart's visible text boxes against each other and against the chart's box, every
 * element that scrolls its own content, and anything wider than the frame.
 */
function findLayoutProblems(): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const visible = (el: Element) => {
    for (let e: Element | null = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === "none" || s.visibility === "hidden" || Number(s.opacity) === 0) return false;
      if (e.getAttribute("opacity") === "0" || e.getAttribute("fill-opacity") === "0") return false;
    }
    return true;
  };
  for (const chart of Array.from(document.querySelectorAll<HTMLElement>(".wb-chart"))) {
    const id = chart.closest("section")?.getAttribute("data-element-id") ?? "?";
    const box = chart.getBoundingClientRect();
    // The server drew the chart for this box (a drawing for another size would be shown scaled).
    const drawnFor = chart.querySelector(".wb-chart-svg > svg")?.getAttribute("viewBox");
    if (drawnFor !== `0 0 ${Math.floor(box.width)} ${Math.floor(box.height)}`) {
      problems.push({
        where: id,
        problem: `drawn for ${drawnFor ?? "nothing"} in a ${box.width}×${box.height} px box`,
      });
    }
    const labels = Array.from(chart.querySelectorAll("svg text"))
      .filter((el) => visible(el) && (el.textContent ?? "").trim() !== "")
      .map((el) => ({ text: (el.textContent ?? "").trim(), r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0);
    if (labels.length === 0) problems.push({ where: id, problem: "chart has no visible labels" });
    for (const { text, r } of labels) {
      if (
        r.left < box.left - 1 ||
        r.right > box.right + 1 ||
        r.top < box.top - 1 ||
        r.bottom > box.bottom + 1
      ) {
        problems.push({
          where: id,
          problem: `label "${text}" clipped: [${Math.round(r.left - box.left)}, ${Math.round(r.right - box.left)}] in a ${Math.round(box.width)} px chart`,
        });
      }
    }
    // No label lies on a slice or a bar (a legend under a pie, a category name beside its bars).
    const shapes = Array.from(chart.querySelectorAll<SVGPathElement>("svg path[ecmeta_ssr_type=chart]"));
    for (const { text, r } of labels) {
      const points = [
        [r.left + 1, r.top + 1],
        [r.right - 1, r.top + 1],
        [r.left + 1, r.bottom - 1],
        [r.right - 1, r.bottom - 1],
        [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
      ];
      const hit = shapes.find((shape) => {
        const toShape = shape.getScreenCTM()?.inverse();
        return (
          toShape && points.some(([x, y]) => shape.isPointInFill(new DOMPoint(x, y).matrixTransform(toShape)))
        );
      });
      if (hit) problems.push({ where: id, problem: `label "${text}" lies on a chart shape` });
    }
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) {
        const a = labels[i]!.r;
        const b = labels[j]!.r;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) {
          problems.push({
            where: id,
            problem: `labels "${labels[i]!.text}" and "${labels[j]!.text}" overlap by ${Math.round(w)}×${Math.round(h)} px`,
          });
        }
      }
    }
  }
  for (const el of Array.from(document.querySelectorAll<HTMLElement>("body *"))) {
    if (!visible(el) || el.closest("svg")) continue;
    const s = getComputedStyle(el);
    const where = el.closest("section")?.getAttribute("data-element-id") ?? el.className ?? el.tagName;
    const scrolls = (o: string) => o === "auto" || o === "scroll";
    if (scrolls(s.overflowY) && el.scrollHeight > el.clientHeight + 1) {
      problems.push({
        where,
        problem: `${el.tagName}.${el.className} scrolls ${el.scrollHeight - el.clientHeight} px down`,
      });
    }
    if (scrolls(s.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      problems.push({
        where,
        problem: `${el.tagName}.${el.className} scrolls ${el.scrollWidth - el.clientWidth} px sideways`,
      });
    }
  }
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) {
    problems.push({
      where: "page",
      problem: `the page is ${page.scrollWidth} px wide in a ${page.clientWidth} px frame`,
    });
  }
  return problems;
}

async function openWorkbook(workbookName: string, width: number): Promise<Frame> {
  // The Tax Center as the advisor sees it (with the client picker), the others as the client.
  const user = workbookName.startsWith("Tax-Center") ? employeeUser() : clientUser(CLIENT_A!);
  const { url } = await mint(t.server, workbookName, user, { ui: { responsive_height: true } });
  await page.setViewportSize({ width, height: 900 });
  await page.goto(host.url(url, { width, height: 900 }));
  await waitForEvent(page, "workbook:dataloaded");
  const frame = page.frames().find((f) => f.url().includes("/workbook/"));
  if (!frame) throw new Error("no workbook frame");
  // Charts are drawn again when their box changes; wait until the labels (in Inter) have stopped moving.
  await frame.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        if (document.fonts.status !== "loaded") return resolve(false);
        const snap = () =>
          Array.from(document.querySelectorAll(".wb-chart svg text"))
            .map((e) => JSON.stringify(e.getBoundingClientRect()))
            .join();
        const before = snap();
        setTimeout(() => resolve(before === snap()), 300);
      }),
    undefined,
    { timeout: 15_000 },
  );
  return frame;
}

describe("workbook layout", () => {
  for (const wb of DEMO_WORKBOOKS) {
    for (const width of WIDTHS) {
      it(`${wb.workbookName} at ${width} px: no overlapping or clipped chart labels, no inner scrolling`, async () => {
        const frame = await openWorkbook(wb.workbookName, width);
        expect(await frame.locator(".wb-chart svg").count()).toBeGreaterThan(0);
        expect(await frame.evaluate(findLayoutProblems)).toEqual([]);
      });
    }
  }

  it("a phone turned sideways (390 → 844 px) gets every chart drawn again for its new width, labels still fitting", async () => {
    const frame = await openWorkbook(DEMO_WORKBOOKS[0]!.workbookName, 390);
    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/embed/query")) asked.push(r.postData() ?? "");
    });
    const widths = () =>
      frame.evaluate(() =>
        Array.from(document.querySelectorAll(".wb-chart-svg > svg")).map((s) => s.getAttribute("viewBox")),
      );
    const before = await widths();
    expect(
      before.every((v) => v?.startsWith("0 0 332 ")),
      before.join(),
    ).toBe(true);
    await page.setViewportSize({ width: 844, height: 390 });
    await page.evaluate(() => {
      (document.getElementById("embed") as HTMLIFrameElement).width = "844";
    });
    await expect
      .poll(async () => (await frame.evaluate(findLayoutProblems)).length, { timeout: 15_000 })
      .toBe(0);
    const after = await widths();
    expect(after).toHaveLength(before.length);
    expect(
      after.every((v) => v?.startsWith("0 0 762 ")),
      after.join(),
    ).toBe(true);
    // Only the charts were asked for again, once.
    expect(asked).toHaveLength(1);
    expect(JSON.parse(asked[0]!).elements).toHaveLength(before.length);
  });

  for (const width of [390, 1440]) {
    it(`axe finds nothing inside the frame at ${width} px (landmarks, tables, contrast)`, async () => {
      for (const wb of DEMO_WORKBOOKS) {
        await openWorkbook(wb.workbookName, width);
        const results = await new AxeBuilder({ page })
          .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
          .include("iframe")
          .analyze();
        const found = results.violations.map(
          (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
        );
        expect(found, wb.workbookName).toEqual([]);
        // The frame's content was checked, not only the host page: its nodes have a frame path.
        const inFrame = results.passes.flatMap((r) => r.nodes).filter((n) => n.target.length > 1);
        expect(inFrame.length, wb.workbookName).toBeGreaterThan(20);
        expect(results.passes.some((r) => r.id === "landmark-unique")).toBe(true);
      }
    });
  }

  it("the frame's text is set in the self-hosted Inter, loaded from the analytics server itself", async () => {
    const fonts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "font") fonts.push(r.url());
    });
    const frame = await openWorkbook(DEMO_WORKBOOKS[0]!.workbookName, 1440);
    const loaded = await frame.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family);
    });
    expect(loaded).toContain("Inter Variable");
    expect(await frame.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(
      /^"Inter Variable"/,
    );
    expect(fonts.length).toBeGreaterThan(0);
    for (const url of fonts) expect(new URL(url).origin).toBe(new URL(frame.url()).origin);
  });

  it("the frame's height settles once: one page height per workbook, reported with its data", async () => {
    for (const wb of DEMO_WORKBOOKS) {
      await openWorkbook(wb.workbookName, 1440);
      const heights = (await events(page))
        .filter((e) => e.type === "workbook:pageheight:onchange")
        .map((e) => e.pageHeight as number);
      expect(heights.length, `${wb.workbookName}: ${heights.join(" → ")}`).toBeGreaterThan(0);
      expect(heights.length, `${wb.workbookName}: ${heights.join(" → ")}`).toBeLessThanOrEqual(2);
      for (let i = 1; i < heights.length; i++) {
        expect(heights[i]!, `${wb.workbookName}: ${heights.join(" → ")}`).toBeGreaterThanOrEqual(
          heights[i - 1]!,
        );
      }
    }
  });
});
