import { BarChart, LineChart, PieChart } from "echarts/charts";
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { useEffect, useRef } from "react";
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

function buildOption(
  element: ChartElement,
  rows: Row[],
  theme: ChartTheme,
  description: string,
): echarts.EChartsCoreOption {
  const common = {
    animation: false,
    color: theme.palette,
    // A concrete family: ECharts measures legend and label text itself and cannot resolve "inherit".
    textStyle: { color: theme.text, fontFamily: CHART_FONT, fontSize: 12 },
    aria: { enabled: true, label: { description } },
    tooltip: { trigger: element.type === "pie" ? "item" : "axis", confine: true },
  };
  if (element.type === "pie") {
    return {
      ...common,
      tooltip: {
        trigger: "item",
        valueFormatter: (v: unknown) => formatValue(v, element.format),
      },
      legend: {
        bottom: 0,
        left: "center",
        itemGap: 12,
        textStyle: { color: theme.text, fontFamily: CHART_FONT },
        formatter: (name: string) => {
          const total = rows.reduce((s, r) => s + Number(r[element.value] ?? 0), 0);
          const r = rows.find((x) => String(x[element.name]) === name);
          const share = total && r ? Number(r[element.value]) / total : 0;
          return `${name}  ${formatValue(share, "percent")}`;
        },
      },
      series: [
        {
          type: "pie",
          radius: ["36%", "62%"],
          center: ["50%", "40%"],
          itemStyle: { borderColor: theme.grid, borderWidth: 1 },
          label: { show: false },
          data: rows.map((r) => ({ name: String(r[element.name]), value: Number(r[element.value] ?? 0) })),
        },
      ],
    };
  }
  const categories = rows.map((r) => String(r[element.x]));
  const dateAxis = element.xFormat === "date";
  const valueAxis = {
    type: "value",
    axisLabel: { color: theme.muted, formatter: (v: number) => formatAxis(v, element.yFormat) },
    splitLine: { lineStyle: { color: theme.grid } },
    scale: element.type !== "bar",
  };
  const categoryAxis = {
    type: "category",
    data: categories,
    boundaryGap: element.type === "bar",
    axisLabel: {
      color: theme.muted,
      // Few categories: show them all, wrapped; long date axes thin themselves out.
      ...(categories.length <= 8 ? { interval: 0, width: 84, overflow: "break" } : { hideOverlap: true }),
      formatter: (v: string) => (dateAxis ? formatValue(v, "date") : v),
    },
    axisLine: { lineStyle: { color: theme.grid } },
  };
  return {
    ...common,
    tooltip: {
      trigger: "axis",
      confine: true,
      valueFormatter: (v: unknown) => formatValue(v, element.yFormat),
    },
    legend:
      element.series.length > 1
        ? { top: 0, itemGap: 16, textStyle: { color: theme.text, fontFamily: CHART_FONT } }
        : undefined,
    grid: { left: 8, right: 16, top: element.series.length > 1 ? 36 : 12, bottom: 8, containLabel: true },
    xAxis: element.horizontal ? valueAxis : categoryAxis,
    yAxis: element.horizontal ? categoryAxis : valueAxis,
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

  useEffect(() => {
    if (!ref.current) return;
    const instance = echarts.init(ref.current, undefined, { renderer: "svg" });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    try {
      instance.setOption(buildOption(element, rows, theme, description), { notMerge: true });
    } catch (error) {
      onError(element.id, error instanceof Error ? error.message : "This chart could not be drawn.");
    }
    // Counted either way: a chart that failed must not hold back `workbook:dataloaded`.
    onRendered();
  }, [element, rows, theme, description, onRendered, onError]);

  return (
    <div
      ref={ref}
      className="wb-chart"
      style={{ height: element.height ?? 300 }}
      data-element-id={element.id}
    />
  );
}
