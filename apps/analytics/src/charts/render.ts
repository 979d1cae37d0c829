/**
 * Workbook charts drawn on the server: ECharts' own server-side rendering to an SVG string, for the size the
 * frame measured (decision 015). The page only inserts the SVG and adds the hover tooltips (web/Chart.tsx),
 * so ECharts is never sent to the browser.
 */
import { createHash } from "node:crypto";
import { BarChart, LineChart, PieChart } from "echarts/charts";
import { GridComponent, LegendComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import type { QueryResult } from "../workbooks/run.ts";
import type { TPublicElement } from "../workbooks/schema.ts";
import { buildOption, describeChart, isChart, isHorizontal, type ChartElement } from "./option.ts";
import type { AxisHover, ChartRender, ChartSize, ItemHover } from "./contract.ts";
import { measureChartText } from "./text.ts";
import { CHART_COLOURS, type TChartTheme } from "./themes.ts";

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, SVGRenderer]);
echarts.setPlatformAPI({ measureText: measureChartText as never });

type Row = Record<string, unknown>;
const round = (n: number) => Math.round(n * 10) / 10;

function axisHover(
  chart: echarts.ECharts,
  element: Exclude<ChartElement, { type: "pie" }>,
  rows: Row[],
  width: number,
  colours: string[],
): AxisHover {
  const horizontal = isHorizontal(element, rows, width);
  // The models' runtime objects: ECharts exports no types for them.
  const model = (chart as unknown as { getModel(): unknown }).getModel() as {
    getComponent(
      type: string,
      index: number,
    ): {
      coordinateSystem?: { getRect(): { x: number; y: number; width: number; height: number } };
      axis?: { getBandWidth(): number; dataToCoord(value: number): number };
    };
    getSeriesByIndex(index: number): { getData(): { getLayout(key: string): ArrayLike<number> | undefined } };
  };
  const rect = model.getComponent("grid", 0).coordinateSystem?.getRect() ?? {
    x: 0,
    y: 0,
    width,
    height: 0,
  };
  const axis = model.getComponent(horizontal ? "yAxis" : "xAxis", 0).axis;
  const positions = rows.map((_, i) => {
    const p = chart.convertToPixel(horizontal ? { yAxisIndex: 0 } : { xAxisIndex: 0 }, i) as number;
    return round(p);
  });
  const points = element.series.map((_, s) => {
    if (element.type === "bar") return [];
    const layout = model.getSeriesByIndex(s).getData().getLayout("points");
    return rows.map((_, i) => {
      const v = layout?.[i * 2 + (horizontal ? 0 : 1)];
      return v === undefined || !Number.isFinite(v) ? null : round(v);
    });
  });
  return {
    kind: "axis",
    horizontal,
    plot: { x: round(rect.x), y: round(rect.y), width: round(rect.width), height: round(rect.height) },
    positions,
    band: round(axis?.getBandWidth() ?? 0),
    colours: element.series.map((_, i) => colours[i % colours.length] as string),
    points,
  };
}

/**
 * Drawings already made, by chart, data, theme and size: the same client opening the same workbook at the
 * same width again (or an advisor and their client) gets the chart without drawing it again. The drawing
 * depends on nothing else, so an entry is never stale; the oldest go first.
 */
const drawn = new Map<string, ChartRender>();
const DRAWN_KEPT = 300;

function remembered(key: string, draw: () => ChartRender): ChartRender {
  const hit = drawn.get(key);
  if (hit) {
    drawn.delete(key);
    drawn.set(key, hit);
    return hit;
  }
  const render = draw();
  if ("svg" in render) {
    drawn.set(key, render);
    if (drawn.size > DRAWN_KEPT) drawn.delete(drawn.keys().next().value as string);
  }
  return render;
}

/** One chart as an SVG string of exactly `size`, with what the page needs for its tooltips. */
export function renderChart(
  element: ChartElement,
  rows: Row[],
  theme: TChartTheme,
  size: ChartSize,
): ChartRender {
  const colours = CHART_COLOURS[theme];
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, ...size });
  try {
    chart.setOption(buildOption(element, rows, colours, size.width, size.off));
    const svg = chart.renderToSVGString({ useViewBox: true });
    const hover: AxisHover | ItemHover =
      element.type === "pie"
        ? { kind: "item", colours: rows.map((_, i) => colours.palette[i % colours.palette.length] as string) }
        : axisHover(chart, element, rows, size.width, colours.palette);
    return { ...size, svg, description: describeChart(element, rows), hover };
  } catch (error) {
    return { ...size, error: error instanceof Error ? error.message : "This chart could not be drawn." };
  } finally {
    chart.dispose();
  }
}

/**
 * The charts of a page's result at the sizes the page measured; charts without a size (not measured yet) are
 * left out, and so are elements whose query failed (the page shows their error).
 */
export function renderCharts(
  elements: readonly TPublicElement[],
  result: QueryResult,
  theme: TChartTheme,
  sizes: Readonly<Record<string, ChartSize>>,
): Record<string, ChartRender> {
  const charts: Record<string, ChartRender> = {};
  for (const element of elements) {
    const size = sizes[element.id];
    const data = result.elements[element.id];
    if (!isChart(element) || !size || !data || data.error) continue;
    const key = createHash("sha256")
      .update(JSON.stringify([element, data.rows, theme, size.width, size.height, size.off ?? []]))
      .digest("base64");
    charts[element.id] = remembered(key, () => renderChart(element, data.rows, theme, size));
  }
  return charts;
}
