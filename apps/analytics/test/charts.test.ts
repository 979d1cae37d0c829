/**
 * The charts the server draws (decision 015): an SVG of exactly the size asked for, what the page needs for
 * its tooltips, data shown as text only, and text widths that match Inter as Chromium draws it.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AxisHover } from "../src/charts/contract.ts";
import { INTER_VERSION } from "../src/charts/inter-widths.ts";
import type { ChartElement } from "../src/charts/option.ts";
import { renderChart, renderCharts } from "../src/charts/render.ts";
import { CHART_FONT, textWidth } from "../src/charts/text.ts";
import { launchChromium } from "./browser-harness.ts";

const line: ChartElement = {
  id: "value",
  type: "area",
  title: "Portfolio value",
  span: 12,
  x: "d",
  xFormat: "date",
  yFormat: "currency0",
  series: [
    { field: "portfolio", name: "Portfolio" },
    { field: "benchmark", name: "Benchmark" },
  ],
  stack: false,
  horizontal: false,
};
const days = Array.from({ length: 120 }, (_, i) => {
  const d = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  return { d, portfolio: 2_000_000 + i * 1_000, benchmark: i === 7 ? null : 1_990_000 + i * 1_100 };
});

const bars: ChartElement = {
  id: "classes",
  type: "bar",
  title: "Allocation vs target",
  span: 8,
  x: "asset_class",
  xFormat: "text",
  yFormat: "percent",
  series: [
    { field: "actual", name: "Actual" },
    { field: "target", name: "Target" },
  ],
  stack: false,
  horizontal: false,
};
const classes = ["US Equity", "International Equity", "Fixed Income", "Real Estate", "Cash"].map(
  (asset_class, i) => ({ asset_class, actual: 0.1 + i / 20, target: 0.12 + i / 25 }),
);

describe("charts drawn on the server", () => {
  it("draws an SVG of exactly the size asked for, with where each category and point is", () => {
    const render = renderChart(line, days, "light", { width: 731, height: 280 });
    if (!("svg" in render)) throw new Error(render.error);
    expect(render.svg).toMatch(/^<svg width="731" height="280"[^>]* viewBox="0 0 731 280"/);
    expect(render.description).toContain("Portfolio value. 120 points from Jan 1, 2026 to Apr 30, 2026");
    const hover = render.hover as AxisHover;
    expect(hover.kind).toBe("axis");
    expect(hover.positions).toHaveLength(days.length);
    // Categories left to right inside the plot, the plot inside the drawing.
    for (let i = 1; i < hover.positions.length; i++) {
      expect(hover.positions[i]!).toBeGreaterThan(hover.positions[i - 1]!);
    }
    expect(hover.plot.x).toBeGreaterThan(0);
    expect(hover.plot.x + hover.plot.width).toBeLessThanOrEqual(731);
    expect(hover.positions[0]).toBeCloseTo(hover.plot.x, 0);
    // A point per row on each line, none where the value is missing; higher values higher up.
    expect(hover.points[0]).toHaveLength(days.length);
    expect(hover.points[1]![7]).toBeNull();
    expect(hover.points[0]![100]!).toBeLessThan(hover.points[0]![10]!);
    expect(hover.colours).toEqual(["#2563eb", "#f59e0b"]);
  });

  it("lays the bars of named categories down on a narrow chart, and its tooltip follows", () => {
    const wide = renderChart(bars, classes, "dark", { width: 700, height: 320 });
    const narrow = renderChart(bars, classes, "dark", { width: 332, height: 320 });
    if (!("svg" in wide) || !("svg" in narrow)) throw new Error("not drawn");
    expect((wide.hover as AxisHover).horizontal).toBe(false);
    expect((narrow.hover as AxisHover).horizontal).toBe(true);
    expect((narrow.hover as AxisHover).band).toBeGreaterThan(20);
    expect((narrow.hover as AxisHover).points.every((p) => p.length === 0)).toBe(true);
    // The dark theme's colours.
    expect(narrow.svg).toContain("#60a5fa");
    expect(narrow.svg).not.toContain("#2563eb");
  });

  it("gives a pie's slices ECharts' SSR indices, which the page's SSR client reads", () => {
    const pie: ChartElement = {
      id: "allocation",
      type: "pie",
      title: "Current allocation",
      span: 4,
      name: "asset_class",
      value: "actual",
      format: "percent",
    };
    const render = renderChart(pie, classes, "light", { width: 420, height: 320 });
    if (!("svg" in render)) throw new Error(render.error);
    expect(render.hover).toEqual({ kind: "item", colours: expect.any(Array) });
    for (let i = 0; i < classes.length; i++) {
      expect(render.svg).toContain(`ecmeta_data_index="${i}" ecmeta_ssr_type="chart"`);
    }
    expect(render.svg).toContain('ecmeta_ssr_type="legend"');
  });

  it("draws a chart once for the same data, theme, size and legend, and again when any of them changes", () => {
    const elements = [line];
    const result = (rows: typeof days) => ({
      asOf: "2026-04-30",
      historyStart: "2026-01-01",
      controls: [],
      variables: {},
      elements: { value: { rows } },
    });
    const size = { value: { width: 640, height: 280 } };
    const first = renderCharts(elements, result(days), "light", size).value;
    expect(renderCharts(elements, result(structuredClone(days)), "light", size).value).toBe(first);
    const changed = days.map((d, i) => (i === 50 ? { ...d, portfolio: 1 } : d));
    expect(renderCharts(elements, result(changed), "light", size).value).not.toBe(first);
    expect(renderCharts(elements, result(days), "dark", size).value).not.toBe(first);
    const benchmarkOff = renderCharts(elements, result(days), "light", {
      value: { width: 640, height: 280, off: [1] },
    }).value;
    expect(benchmarkOff).not.toBe(first);
    expect(benchmarkOff).toMatchObject({ off: [1] });
    const wider = renderCharts(elements, result(days), "light", { value: { width: 641, height: 280 } }).value;
    expect(wider).toMatchObject({ width: 641 });
  });

  it("writes names from the data as text, never as markup", () => {
    const hostile = classes.map((c, i) => ({
      ...c,
      asset_class: i === 0 ? `<img src=x onerror="alert(1)">` : `${c.asset_class} "quoted"`,
    }));
    const render = renderChart(bars, hostile, "light", { width: 700, height: 320 });
    if (!("svg" in render)) throw new Error(render.error);
    expect(render.svg).not.toContain("<img");
    expect(render.svg).toContain("&lt;img");
    expect(render.svg).toContain("&quot;quoted&quot;");
    expect(render.svg).not.toContain("<script");
  });
});

describe("chart text widths", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("come from the Inter the page serves", async () => {
    const require = createRequire(import.meta.url);
    const pkg = path.join(
      path.dirname(require.resolve("@fontsource-variable/inter/wght.css")),
      "package.json",
    );
    const { version } = JSON.parse(await readFile(pkg, "utf8")) as { version: string };
    // A newer Inter needs `npm run font-widths -w apps/analytics`.
    expect(INTER_VERSION).toBe(version);
  });

  it("are what Chromium measures for chart labels set in the self-hosted Inter, never less", async () => {
    const labels = [
      "Nov 20, 2026",
      "Jan 1, 2026",
      "$2.7M",
      "-$1.2K",
      "12.5%",
      "-4.0%",
      "International Equity",
      "US Equity  48.17%",
      "Tax-Exempt Bond Index ETF",
      "Benchmark",
      "Short-term gains",
      "Qualified dividends",
      "Zoë Ångström-Çelik",
    ];
    const woff2 = await readFile(
      path.join(
        path.dirname(createRequire(import.meta.url).resolve("@fontsource-variable/inter/wght.css")),
        "files",
        "inter-latin-wght-normal.woff2",
      ),
    );
    const woff2ext = await readFile(
      path.join(
        path.dirname(createRequire(import.meta.url).resolve("@fontsource-variable/inter/wght.css")),
        "files",
        "inter-latin-ext-wght-normal.woff2",
      ),
    );
    const page = await browser.newPage();
    // Measured as the frame draws them: SVG text in the charts' font, Inter loaded as a web font.
    const measured = await page.evaluate(
      async ({ fonts, labels, family }) => {
        for (const [data, range] of fonts) {
          const bytes = Uint8Array.from(atob(data as string), (c) => c.charCodeAt(0));
          const face = new FontFace("Inter Variable", bytes, { weight: "100 900", unicodeRange: range });
          document.fonts.add(await face.load());
        }
        const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
        document.body.append(svg);
        return labels.map((label) => {
          const text = document.createElementNS("http://www.w3.org/2000/svg", "text");
          text.setAttribute("style", `font-size:12px;font-family:${family};`);
          text.style.whiteSpace = "pre"; // as ECharts' xml:space="preserve"
          text.textContent = label;
          svg.append(text);
          return text.getBBox().width;
        });
      },
      {
        fonts: [
          [woff2.toString("base64"), "U+0000-00FF,U+2000-206F"],
          [woff2ext.toString("base64"), "U+0100-02BA"],
        ],
        labels,
        family: CHART_FONT,
      },
    );
    labels.forEach((label, i) => {
      const browserWidth = measured[i] as number;
      const serverWidth = textWidth(label);
      // Never narrower than drawn (labels placed by it cannot overlap), and no more than 5 % wider.
      expect(serverWidth, label).toBeGreaterThanOrEqual(browserWidth);
      expect(serverWidth, label).toBeLessThanOrEqual(browserWidth * 1.05);
    });
  });
});
