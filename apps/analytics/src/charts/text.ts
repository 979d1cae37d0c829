/**
 * How wide chart text is, for ECharts laying out charts on the server (decision 015). There is no browser
 * to measure in, so the charts are set in the page's own self-hosted Inter and measured with its advance
 * widths as Chromium reports them (`inter-widths.ts`, made by scripts/chart-font-widths.ts): the labels
 * ECharts places here fit when the browser draws them in the same font.
 */
import { INTER_WIDTH_RUNS } from "./inter-widths.ts";

/**
 * The charts' font. Single quotes: ECharts writes it into a double-quoted `style` attribute of the SVG.
 * Inter only: a fallback font has other widths, and the layout is computed for Inter's.
 */
export const CHART_FONT = "'Inter Variable', Inter, sans-serif";
export const CHART_FONT_SIZE = 12;

const WIDTHS = new Map<number, number>();
for (const [first, ...widths] of INTER_WIDTH_RUNS) {
  widths.forEach((w, i) => WIDTHS.set((first as number) + i, w / 1000));
}
/** A character outside the table (another script): wider than any Latin letter, so nothing is placed too close. */
const UNKNOWN = 0.75;
const WIDE = 1;
/** Inter is wider at bold weights; the charts use none, but text asked for bold gets room for it. */
const BOLD = 1.08;
/**
 * Drawn text is a little wider or narrower than the sum of its characters' advances (kerning, and the
 * browser placing glyphs on its own grid at small sizes): up to 1 % in test/charts.test.ts. The margin keeps
 * the measure from ever being narrower than what is drawn.
 */
const MARGIN = 1.02;

function emWidth(codePoint: number): number {
  const w = WIDTHS.get(codePoint);
  if (w !== undefined) return w;
  // CJK, Hangul and the like are one em wide.
  return codePoint >= 0x2e80 ? WIDE : UNKNOWN;
}

/** The width in px of `text` set in the charts' font at `size` px, never less than the browser draws. */
export function textWidth(text: string, size = CHART_FONT_SIZE, bold = false): number {
  let em = 0;
  for (const ch of text) em += emWidth(ch.codePointAt(0) as number);
  return em * size * MARGIN * (bold ? BOLD : 1);
}

/** ECharts' text measurement (`setPlatformAPI({ measureText })`) for a CSS font shorthand. */
export function measureChartText(text: string, font?: string): { width: number } {
  const size = Number(/(\d+(?:\.\d+)?)px/.exec(font ?? "")?.[1] ?? CHART_FONT_SIZE);
  const bold = /\b(bold|bolder|[6-9]00)\b/.test(font ?? "");
  return { width: textWidth(text, size, bold) };
}
