import { hydrate } from "echarts/ssr/client/index";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import {
  CHART_SIZE_LIMITS,
  sameView,
  type AxisHover,
  type ChartRender,
  type ChartSize,
} from "../src/charts/contract.ts";
import { formatValue } from "../src/workbooks/format.ts";
import type { TPublicElement } from "../src/workbooks/schema.ts";

type ChartElement = Extract<TPublicElement, { type: "line" | "area" | "bar" | "pie" }>;
type Row = Record<string, unknown>;

/** The drawing made for `view`, else the newest one (shown scaled until the right one arrives). */
export function renderFor(renders: readonly ChartRender[] | undefined, view: ChartSize | undefined) {
  if (!renders || renders.length === 0) return undefined;
  return renders.find((r) => sameView(r, view)) ?? renders[renders.length - 1];
}

/** The category under the pointer: the nearest category centre along the category axis. */
function nearest(positions: readonly number[], at: number): number {
  let lo = 0;
  let hi = positions.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((positions[mid] as number) < at) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs((positions[lo - 1] as number) - at) <= Math.abs((positions[lo] as number) - at))
    return lo - 1;
  return lo;
}

interface Tip {
  /** The drawing it is for: a new drawing starts without one. */
  svg: string;
  /** Pointer position in the chart box, CSS px. */
  x: number;
  y: number;
  /** The row (category or slice) shown. */
  index: number;
}

function Swatch({ colour }: { colour: string }) {
  return <span className="wb-tip-swatch" style={{ background: colour }} />;
}

function TipContent({
  element,
  rows,
  hover,
  index,
  off,
}: {
  element: ChartElement;
  rows: Row[];
  hover: ChartRender;
  index: number;
  /** Series switched off in the legend: not in the tooltip either. */
  off: readonly number[];
}) {
  const row = rows[index];
  if (!row || !("hover" in hover)) return null;
  if (element.type === "pie") {
    const total = rows.reduce((s, r) => s + Number(r[element.value] ?? 0), 0);
    const share = total ? Number(row[element.value]) / total : 0;
    return (
      <p className="wb-tip-line">
        <Swatch colour={hover.hover.colours[index] ?? "currentColor"} />
        <span>{String(row[element.name])}</span>
        <strong>
          {formatValue(row[element.value], element.format)} ({formatValue(share, "percent")})
        </strong>
      </p>
    );
  }
  return (
    <>
      <p className="wb-tip-head">{formatValue(row[element.x], element.xFormat)}</p>
      {element.series.map((s, i) =>
        off.includes(i) ? null : (
          <p key={s.field} className="wb-tip-line">
            <Swatch colour={hover.hover.colours[i] ?? "currentColor"} />
            <span>{s.name}</span>
            <strong>{formatValue(row[s.field], s.format ?? element.yFormat)}</strong>
          </p>
        ),
      )}
    </>
  );
}

/**
 * The axis pointer of a cartesian chart at a category: the bars' band (drawn under the chart, as ECharts
 * shades it), or a line with a dot on each line series (over it).
 */
function AxisPointer({
  hover,
  index,
  size,
  layer,
}: {
  hover: AxisHover;
  index: number;
  size: ChartSize;
  layer: "under" | "over";
}) {
  const at = hover.positions[index] as number;
  const { plot } = hover;
  const bars = hover.points.every((p) => p.length === 0);
  if (bars !== (layer === "under")) return null;
  const across = hover.horizontal
    ? { x1: plot.x, x2: plot.x + plot.width, y1: at, y2: at }
    : { x1: at, x2: at, y1: plot.y, y2: plot.y + plot.height };
  const band = hover.horizontal
    ? { x: plot.x, width: plot.width, y: at - hover.band / 2, height: hover.band }
    : { x: at - hover.band / 2, width: hover.band, y: plot.y, height: plot.height };
  return (
    <svg
      className="wb-chart-pointer"
      viewBox={`0 0 ${size.width} ${size.height}`}
      aria-hidden="true"
      focusable="false"
    >
      {bars ? (
        <rect {...band} className="wb-pointer-band" />
      ) : (
        <>
          <line {...across} className="wb-pointer-line" />
          {hover.points.map((points, s) => {
            const v = points[index];
            if (v === null || v === undefined) return null;
            return (
              <circle
                key={s}
                cx={hover.horizontal ? v : at}
                cy={hover.horizontal ? at : v}
                r={4}
                fill={hover.colours[s]}
                className="wb-pointer-dot"
              />
            );
          })}
        </>
      )}
    </svg>
  );
}

/**
 * The category under the pointer (at `x`, `y` in the chart's box) of a cartesian drawing, or undefined when the
 * pointer is outside its plot.
 */
function categoryAt(hover: AxisHover, drawn: ChartSize, box: DOMRect, x: number, y: number) {
  // Pointer position in the drawing's own pixels (the drawing may be shown scaled for a moment).
  const scale = Math.min(box.width / drawn.width, box.height / drawn.height) || 1;
  const sx = (x - (box.width - drawn.width * scale) / 2) / scale;
  const sy = (y - (box.height - drawn.height * scale) / 2) / scale;
  const { plot, positions, horizontal } = hover;
  const inside =
    sx >= plot.x - 4 && sx <= plot.x + plot.width + 4 && sy >= plot.y - 4 && sy <= plot.y + plot.height + 4;
  return inside && positions.length > 0 ? nearest(positions, horizontal ? sy : sx) : undefined;
}

/**
 * The chart box's size: measured before the first paint, then on every change of the box (frame width,
 * rotation, full screen).
 */
function useChartSize(ref: React.RefObject<HTMLDivElement | null>): ChartSize | undefined {
  const [size, setSize] = useState<ChartSize | undefined>(undefined);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = (width: number, height: number) => {
      // A hidden chart (another element is full screen) keeps its size and drawing.
      if (width < CHART_SIZE_LIMITS.minWidth || height < CHART_SIZE_LIMITS.minHeight) return;
      const next = {
        width: Math.min(Math.floor(width), CHART_SIZE_LIMITS.maxWidth),
        height: Math.min(Math.floor(height), CHART_SIZE_LIMITS.maxHeight),
      };
      setSize((s) => (s && s.width === next.width && s.height === next.height ? s : next));
    };
    const box = el.getBoundingClientRect();
    measure(box.width, box.height);
    const observer = new ResizeObserver((entries) => {
      const rect = entries[0]?.contentRect;
      if (rect) measure(rect.width, rect.height);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/**
 * A workbook chart: the SVG the server drew for this box's size (decision 015), with tooltips on hover. The
 * box reports its size; the workbook asks the server for a drawing at a new size (resize, rotation, full
 * screen) and shows the last one scaled until it arrives.
 */
export function Chart({
  element,
  rows,
  renders,
  onSize,
  onError,
}: {
  element: ChartElement;
  rows: Row[];
  /** The server's drawings of this element for the data shown, newest last. */
  renders: readonly ChartRender[] | undefined;
  onSize: (nodeId: string, size: ChartSize) => void;
  /** A chart that could not be drawn (reported to the host as `workbook:chart:error`). */
  onError: (nodeId: string, message: string) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const size = useChartSize(ref);
  // Legend items switched off, as ECharts' legend does on a click: the server draws the chart without them.
  const [off, setOff] = useState<number[]>([]);
  const view = useMemo(() => (size && off.length > 0 ? { ...size, off } : size), [size, off]);
  const [tip, setTip] = useState<Tip | null>(null);
  const render = renderFor(renders, view);
  const drawn = render && "svg" in render ? render : undefined;

  useLayoutEffect(() => {
    if (view) onSize(element.id, view);
  }, [element.id, view, onSize]);

  const failed = render && "error" in render ? render.error : undefined;
  useEffect(() => {
    if (failed) onError(element.id, failed);
  }, [element.id, failed, onError]);

  // Legend items (and a pie's slices) carry ECharts' SSR indices: its SSR client reports them.
  const pointer = useRef({ x: 0, y: 0 });
  const svg = drawn?.svg;
  const pie = element.type === "pie";
  useEffect(() => {
    const el = ref.current?.querySelector<HTMLElement>(".wb-chart-svg");
    if (!el || !svg) return;
    // The SSR client's listeners cannot be removed: they stay on the drawing, and do nothing once it is
    // no longer this effect's (React runs an effect twice in development).
    let active = true;
    hydrate(el, {
      on: {
        mouseover: (params) => {
          if (active && pie && params.dataIndex !== undefined)
            setTip({ svg, ...pointer.current, index: params.dataIndex });
        },
        mouseout: () => {
          if (active && pie) setTip(null);
        },
        click: (params) => {
          // A series' legend item names its series; a pie's names its slice.
          const index = pie ? params.dataIndex : params.seriesIndex;
          if (!active || params.ssrType !== "legend" || index === undefined) return;
          setOff((o) =>
            o.includes(index) ? o.filter((i) => i !== index) : [...o, index].sort((a, b) => a - b),
          );
        },
      },
    });
    return () => {
      active = false;
    };
  }, [svg, pie]);

  const track = (e: React.PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - box.left;
    const y = e.clientY - box.top;
    pointer.current = { x, y };
    if (!drawn) return;
    if (drawn.hover.kind === "item") {
      setTip((t) => (t ? { ...t, x, y } : t));
      return;
    }
    const index = categoryAt(drawn.hover, drawn, box, x, y);
    setTip(index === undefined ? null : { svg: drawn.svg, x, y, index });
  };

  const shownTip = drawn && tip?.svg === drawn.svg ? tip : null;
  const width = size?.width ?? 0;
  const height = size?.height ?? 0;
  return (
    <div
      ref={ref}
      className="wb-chart"
      style={{ height: element.height ?? 300 }}
      data-element-id={element.id}
      role={drawn ? "img" : undefined}
      aria-label={drawn?.description}
      onPointerMove={track}
      onPointerDown={track}
      // A finger lifts off (and "leaves") right after a tap: its tooltip stays until the next tap.
      onPointerLeave={(e) => {
        if (e.pointerType === "mouse") setTip(null);
      }}
    >
      {drawn && shownTip && drawn.hover.kind === "axis" && (
        <AxisPointer hover={drawn.hover} index={shownTip.index} size={drawn} layer="under" />
      )}
      {drawn ? (
        <div className="wb-chart-svg" dangerouslySetInnerHTML={{ __html: drawn.svg }} />
      ) : failed ? (
        <p className="wb-element-error">This chart could not be drawn.</p>
      ) : (
        <div className="wb-skeleton wb-chart-pending" aria-hidden="true" />
      )}
      {drawn && shownTip && (
        <>
          {drawn.hover.kind === "axis" && (
            <AxisPointer hover={drawn.hover} index={shownTip.index} size={drawn} layer="over" />
          )}
          <div
            className="wb-tip"
            aria-hidden="true"
            style={{
              // Beside the pointer, on the side with more room, inside the chart (ECharts' `confine`).
              left: shownTip.x > width / 2 ? undefined : shownTip.x + 14,
              right: shownTip.x > width / 2 ? width - shownTip.x + 14 : undefined,
              top: shownTip.y > height / 2 ? undefined : shownTip.y + 14,
              bottom: shownTip.y > height / 2 ? height - shownTip.y + 14 : undefined,
            }}
          >
            <TipContent element={element} rows={rows} hover={drawn} index={shownTip.index} off={off} />
          </div>
        </>
      )}
    </div>
  );
}
