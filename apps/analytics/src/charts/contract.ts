/**
 * What the server sends the embed page about a chart it drew (decision 015). Types and limits only, so the
 * page's bundle can import it without ECharts.
 */

/** How the page shows a chart: its box, and the legend items the person switched off. */
export interface ChartSize {
  width: number;
  height: number;
  /** Series (a pie's slices) switched off in the legend, by index, ascending; none when absent. */
  off?: number[];
}

/** Whether a drawing was made for this box and these legend choices. */
export function sameView(a: ChartSize, b: ChartSize | undefined): boolean {
  return (
    b !== undefined &&
    a.width === b.width &&
    a.height === b.height &&
    (a.off ?? []).join() === (b.off ?? []).join()
  );
}

/** Sizes the page may ask for, in CSS px. */
export const CHART_SIZE_LIMITS = { minWidth: 40, maxWidth: 4000, minHeight: 80, maxHeight: 4000 } as const;

/** Where a cartesian chart's categories are, for the page's axis tooltip (pixels of the SVG). */
export interface AxisHover {
  kind: "axis";
  /** Bars lie down: categories run top to bottom. */
  horizontal: boolean;
  plot: { x: number; y: number; width: number; height: number };
  /** Centre of each category along the category axis, in row order. */
  positions: number[];
  /** Width of one category's band (the bars' slot). */
  band: number;
  /** Each series' colour, in the element's series order. */
  colours: string[];
  /** Each line series' point on the value axis per row (null for bars and for missing values). */
  points: (number | null)[][];
}

/** A pie: slices and legend items carry ECharts' SSR indices (`echarts/ssr/client` reads them). */
export interface ItemHover {
  kind: "item";
  colours: string[];
}

export type ChartRender =
  | {
      width: number;
      height: number;
      svg: string;
      /** What the chart shows, for screen readers (the chart's accessible name). */
      description: string;
      hover: AxisHover | ItemHover;
    }
  | { width: number; height: number; error: string };
