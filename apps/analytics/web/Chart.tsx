import { BarChart, LineChart, PieChart } from "echarts/charts";
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { useEffect, useRef, useState } from "react";
import type { TPublicElement } from "../src/workbooks/schema.ts";
import { formatAxis, formatValue } from "./format.ts";

echarts.use([
  BarChart,
  LineChart,
  PieChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  AriaComponent,
  SVGRenderer,
]);

const CHART_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

type ChartElement = Extract<TPublicElement, { type: "line" | "area" | "bar" | "pie" }>;
type Row = Record<string, unknown>;

export interface ChartTheme {
  text: string;
  muted: string;
  grid: string;
  palette: string[];
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
const LEGEND_ROW = 22;

let measureContext: CanvasRenderingContext2D | null | undefined;
/** The width of a text in the charts' font, as ECharts will draw it. */
function textWidth(text: string, size = 12): number {
  if (measureContext === undefined) measureContext = document.createElement("canvas").getContext("2d");
  if (!measureContext) return text.length * size * 0.6;
  measureContext.font = `${size}px ${CHART_FONT}`;
  return measureContext.measureText(text).width;
}

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

function buildOption(
  element: ChartElement,
  rows: Row[],
  theme: ChartTheme,
  description: string,
  width: number,
): echarts.EChartsCoreOption {
  const narrow = width > 0 && width < NARROW;
  const common = {
    animation: false,
    color: theme.palette,
    // A concrete family: ECharts measures legend and label text itself and cannot resolve "inherit".
    textStyle: { color: theme.text, fontFamily: CHART_FONT, fontSize: 12 },
    aria: { enabled: true, label: { description } },
    tooltip: { trigger: element.type === "pie" ? "item" : "axis", confine: true },
  };
  if (element.type === "pie") {
    const total = rows.reduce((s, r) => s + Number(r[element.value] ?? 0), 0);
    const legendText = (name: string) => {
      const r = rows.find((x) => String(x[element.name]) === name);
      const share = total && r ? Number(r[element.value]) / total : 0;
      return `${name}  ${formatValue(share, "percent")}`;
    };
    const legendHeight =
      legendRows(
        rows.map((r) => legendText(String(r[element.name]))),
        width || 600,
      ) * LEGEND_ROW;
    return {
      ...common,
      tooltip: {
        trigger: "item",
        valueFormatter: (v: unknown) => formatValue(v, element.format),
      },
      legend: {
        bottom: 0,
        left: "center",
        itemGap: 16,
        textStyle: { color: theme.text, fontFamily: CHART_FONT },
        formatter: legendText,
      },
      series: [
        {
          type: "pie",
          // The ring fills the space above the legend.
          radius: ["58%", "92%"],
          top: 0,
          bottom: legendHeight + 8,
          itemStyle: { borderColor: theme.grid, borderWidth: 1 },
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
  const longNames = !dateAxis && categories.some((c) => textWidth(c) > 60);
  const horizontal = element.horizontal || (element.type === "bar" && narrow && longNames);
  const few = categories.length <= 8;
  const slot = (width || 600) / Math.max(1, categories.length);
  const valueAxis = {
    type: "value",
    axisLabel: {
      color: theme.muted,
      formatter: (v: number) => formatAxis(v, element.yFormat),
      // The lowest value sits on the category axis; its label would touch the first category's.
      ...(horizontal ? { margin: 12, hideOverlap: true } : { showMinLabel: element.type === "bar" }),
    },
    splitLine: { lineStyle: { color: theme.grid } },
    scale: element.type !== "bar",
    splitNumber: narrow ? 4 : 5,
  };
  const categoryAxis = {
    type: "category",
    data: categories,
    boundaryGap: element.type === "bar",
    axisTick: { alignWithLabel: element.type === "bar" },
    axisLabel: {
      color: theme.muted,
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
                // Labels at the ends of a line's axis sit on its edges: turned inward, they are not cut.
                ...(element.type === "bar" ? {} : { alignMinLabel: "left", alignMaxLabel: "right" }),
              }),
      formatter: label,
    },
    axisLine: { lineStyle: { color: theme.grid } },
  };
  const legendNames = element.series.map((s) => s.name);
  const legend = element.series.length > 1;
  const legendHeight = legend ? legendRows(legendNames, width || 600) * LEGEND_ROW : 0;
  // On narrow charts the legend goes under the plot, where it cannot cover an axis.
  const legendAtBottom = narrow;
  return {
    ...common,
    tooltip: {
      trigger: "axis",
      confine: true,
      valueFormatter: (v: unknown) => formatValue(v, element.yFormat),
    },
    legend: legend
      ? {
          ...(legendAtBottom ? { bottom: 0 } : { top: 0 }),
          left: "center",
          itemGap: 16,
          textStyle: { color: theme.text, fontFamily: CHART_FONT },
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

export function Chart({
  element,
  rows,
  theme,
  onRendered,
  onError,
}: {
  element: ChartElement;
  rows: Row[];
  theme: ChartTheme;
  onRendered: () => void;
  /** A chart that could not be drawn (reported to the host as `workbook:chart:error`). */
  onError: (nodeId: string, message: string) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const description = describeChart(element, rows);
  // The layout depends on the chart's width (legend place, label widths), rounded to limit redraws.
  // null until first measured: the chart is drawn once, at its real width.
  const [width, setWidth] = useState<number | null>(null);

  useEffect(() => {
    if (!ref.current) return;
    const instance = echarts.init(ref.current, undefined, { renderer: "svg" });
    chart.current = instance;
    const observer = new ResizeObserver((entries) => {
      instance.resize();
      const w = entries[0]?.contentRect.width ?? 0;
      setWidth(Math.round(w / 8) * 8);
    });
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || width === null) return;
    try {
      instance.setOption(buildOption(element, rows, theme, description, width), { notMerge: true });
    } catch (error) {
      onError(element.id, error instanceof Error ? error.message : "This chart could not be drawn.");
    }
    // Counted either way: a chart that failed must not hold back `workbook:dataloaded`.
    onRendered();
  }, [element, rows, theme, description, width, onRendered, onError]);

  return (
    <div
      ref={ref}
      className="wb-chart"
      style={{ height: element.height ?? 300 }}
      data-element-id={element.id}
    />
  );
}
