/**
 * The ECharts option of a workbook chart for a given width: what the layout work of the charts is (labels
 * inside the chart, thinned long axes, legends under narrow charts, bars of named categories lying down on
 * phones). Built on the server, which renders it to SVG (render.ts, decision 015).
 */
import type { EChartsCoreOption } from "echarts/core";
import { formatAxis, formatValue } from "../workbooks/format.ts";
import type { TPublicElement } from "../workbooks/schema.ts";
import { CHART_FONT, CHART_FONT_SIZE, textWidth } from "./text.ts";
import type { ChartColours } from "./themes.ts";

export type ChartElement = Extract<TPublicElement, { type: "line" | "area" | "bar" | "pie" }>;
type Row = Record<string, unknown>;

export function isChart(element: TPublicElement): element is ChartElement {
  return (
    element.type === "line" || element.type === "area" || element.type === "bar" || element.type === "pie"
  );
}

/** A sentence a screen reader can use: what is plotted, its range and its latest values. */
export function describeChart(element: ChartElement, rows: Row[]): string {
  if (rows.length === 0) return `${element.title}: no data for the selected filters.`;
  if (element.type === "pie") {
    const total = rows.reduce((s, r) => s + Number(r[element.value] ?? 0), 0);
    const parts = rows.map(
      (r) =>
        `${String(r[element.name])} ${formatValue(r[element.value], element.format)} (${formatValue(total ? Number(r[element.value]) / total : 0, "percent")})`,
    );
    return `${element.title}. ${parts.join("; ")}.`;
  }
  const first = rows[0] as Row;
  const last = rows[rows.length - 1] as Row;
  const series = element.series
    .map((s) => {
      const values = rows.map((r) => Number(r[s.field])).filter(Number.isFinite);
      const fmt = s.format ?? element.yFormat;
      if (values.length === 0) return `${s.name}: no values`;
      return rows.length <= 12
        ? `${s.name}: ${rows.map((r) => `${formatValue(r[element.x], element.xFormat)} ${formatValue(r[s.field], fmt)}`).join(", ")}`
        : `${s.name} from ${formatValue(first[s.field], fmt)} to ${formatValue(last[s.field], fmt)}, lowest ${formatValue(Math.min(...values), fmt)}, highest ${formatValue(Math.max(...values), fmt)}`;
    })
    .join(". ");
  const span =
    rows.length > 12
      ? ` ${rows.length} points from ${formatValue(first[element.x], element.xFormat)} to ${formatValue(last[element.x], element.xFormat)}.`
      : "";
  return `${element.title}.${span} ${series}.`;
}

/** Below this chart width the legend goes under the plot and bar charts of named categories lie down. */
const NARROW = 520;
/**
 * The height ECharts gives a legend of `rows` rows: 14 px items, the 16 px item gap between rows too, and its
 * 5 px padding above and below.
 */
const legendHeightOf = (rows: number) => rows * 14 + (rows - 1) * 16 + 10;

/** How many rows a plain legend of `names` takes in `width` px (icon 25 px, gap 16 px). */
function legendRows(names: string[], width: number): number {
  let rows = 1;
  let x = 0;
  for (const name of names) {
    const w = 25 + 5 + textWidth(name) + 16;
    if (x > 0 && x + w > width - 16) {
      rows += 1;
      x = 0;
    }
    x += w;
  }
  return rows;
}

/** Whether a cartesian chart of `element` at `width` lies its bars down (category axis on the left). */
export function isHorizontal(element: Exclude<ChartElement, { type: "pie" }>, rows: Row[], width: number) {
  const longNames = element.xFormat !== "date" && rows.some((r) => textWidth(String(r[element.x])) > 60);
  return element.horizontal || (element.type === "bar" && width < NARROW && longNames);
}

export function buildOption(
  element: ChartElement,
  rows: Row[],
  colours: ChartColours,
  width: number,
  /** Legend items switched off (series, or a pie's slices), by index. */
  off: readonly number[] = [],
): EChartsCoreOption {
  const narrow = width < NARROW;
  const selected = (names: string[]) => Object.fromEntries(names.map((n, i) => [n, !off.includes(i)]));
  const common = {
    animation: false,
    color: colours.palette,
    textStyle: { color: colours.text, fontFamily: CHART_FONT, fontSize: CHART_FONT_SIZE },
  };
  const legendText = { color: colours.text, fontFamily: CHART_FONT, fontSize: CHART_FONT_SIZE };
  if (element.type === "pie") {
    const total = rows.reduce((s, r) => s + Number(r[element.value] ?? 0), 0);
    const legendLabel = (name: string) => {
      const r = rows.find((x) => String(x[element.name]) === name);
      const share = total && r ? Number(r[element.value]) / total : 0;
      return `${name}  ${formatValue(share, "percent")}`;
    };
    const legendHeight = legendHeightOf(
      legendRows(
        rows.map((r) => legendLabel(String(r[element.name]))),
        width,
      ),
    );
    return {
      ...common,
      legend: {
        bottom: 0,
        left: "center",
        itemGap: 16,
        textStyle: legendText,
        formatter: legendLabel,
        selected: selected(rows.map((r) => String(r[element.name]))),
      },
      series: [
        {
          type: "pie",
          // The ring fills the space above the legend.
          radius: ["58%", "92%"],
          top: 0,
          bottom: legendHeight + 8,
          itemStyle: { borderColor: colours.grid, borderWidth: 1 },
          label: { show: false },
          data: rows.map((r) => ({ name: String(r[element.name]), value: Number(r[element.value] ?? 0) })),
        },
      ],
    };
  }
  const categories = rows.map((r) => String(r[element.x]));
  const dateAxis = element.xFormat === "date";
  const label = (v: string) => (dateAxis ? formatValue(v, "date") : v);
  // Bars of named categories (asset classes) lie down on narrow charts, so their names fit beside them.
  const horizontal = isHorizontal(element, rows, width);
  const few = categories.length <= 8;
  const slot = width / Math.max(1, categories.length);
  const valueAxis = {
    type: "value",
    axisLabel: {
      color: colours.muted,
      formatter: (v: number) => formatAxis(v, element.yFormat),
      // The lowest value sits on the category axis; its label would touch the first category's.
      ...(horizontal ? { margin: 12, hideOverlap: true } : { showMinLabel: element.type === "bar" }),
    },
    splitLine: { lineStyle: { color: colours.grid } },
    scale: element.type !== "bar",
    splitNumber: narrow ? 4 : 5,
  };
  const categoryAxis = {
    type: "category",
    data: categories,
    boundaryGap: element.type === "bar",
    axisTick: { alignWithLabel: element.type === "bar" },
    axisLabel: {
      color: colours.muted,
      margin: horizontal ? 8 : 12,
      ...(horizontal
        ? { interval: 0, width: Math.min(140, Math.max(80, width * 0.35)), overflow: "break", lineHeight: 15 }
        : few && categories.every((c) => textWidth(label(c)) <= slot - 8)
          ? { interval: 0 }
          : few
            ? { interval: 0, width: Math.max(40, slot - 6), overflow: "break", lineHeight: 15 }
            : // Long axes (dates, months) thin themselves out; the end labels stay inside the chart.
              {
                hideOverlap: true,
                // Labels at the ends of a line's axis sit on its edges: turned inward, they are not cut. Both
                // always shown, so thinning never leaves a centred label near an end, sticking out.
                ...(element.type === "bar"
                  ? {}
                  : {
                      alignMinLabel: "left",
                      alignMaxLabel: "right",
                      showMinLabel: true,
                      showMaxLabel: true,
                    }),
              }),
      formatter: label,
    },
    axisLine: { lineStyle: { color: colours.grid } },
  };
  const legendNames = element.series.map((s) => s.name);
  const legend = element.series.length > 1;
  const legendHeight = legend ? legendHeightOf(legendRows(legendNames, width)) : 0;
  // On narrow charts the legend goes under the plot, where it cannot cover an axis.
  const legendAtBottom = narrow;
  return {
    ...common,
    legend: legend
      ? {
          ...(legendAtBottom ? { bottom: 0 } : { top: 0 }),
          left: "center",
          itemGap: 16,
          textStyle: legendText,
          selected: selected(legendNames),
        }
      : undefined,
    grid: {
      left: 4,
      right: narrow ? 8 : 16,
      top: (legend && !legendAtBottom ? legendHeight + 10 : 0) + 10,
      bottom: (legend && legendAtBottom ? legendHeight + 10 : 0) + 4,
      // Axis labels are laid out inside the chart: nothing is cut at its edges.
      outerBoundsMode: "same",
      outerBoundsContain: "axisLabel",
    },
    xAxis: horizontal ? valueAxis : categoryAxis,
    yAxis: horizontal ? { ...categoryAxis, inverse: true } : valueAxis,
    series: element.series.map((s) => ({
      type: element.type === "area" ? "line" : element.type,
      name: s.name,
      stack: element.stack ? "total" : undefined,
      showSymbol: false,
      smooth: false,
      barMaxWidth: 36,
      areaStyle: element.type === "area" ? { opacity: 0.18 } : undefined,
      data: rows.map((r) => (r[s.field] === null || r[s.field] === undefined ? null : Number(r[s.field]))),
    })),
  };
}
