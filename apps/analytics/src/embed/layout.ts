/**
 * The chart sizes an embed page reports while the server computes its first data (page.ts's layout script),
 * so the first answer carries the charts already drawn for the frame (decision 015). Held in memory for the
 * seconds between the page's head and its data; a report for a page that is not waiting is ignored.
 */
import { z } from "zod";
import { CHART_SIZE_LIMITS, type ChartSize } from "../charts/contract.ts";

export const ZChartSizesSchema = z
  .record(
    z.string().max(64),
    z.object({
      width: z.number().int().min(CHART_SIZE_LIMITS.minWidth).max(CHART_SIZE_LIMITS.maxWidth),
      height: z.number().int().min(CHART_SIZE_LIMITS.minHeight).max(CHART_SIZE_LIMITS.maxHeight),
      off: z.array(z.number().int().min(0).max(199)).max(200).optional(),
    }),
  )
  .refine((sizes) => Object.keys(sizes).length <= 64, "at most 64 charts");
export type TChartSizes = Record<string, ChartSize>;

/** How long a page's first data waits for its chart sizes once the data is ready. */
export const LAYOUT_GRACE_MS = 150;

export class LayoutReports {
  private readonly waiting = new Map<string, (sizes: TChartSizes) => void>();

  /** The sizes the page of `sessionToken` will report (call `forget` once they are no longer needed). */
  expect(sessionToken: string): Promise<TChartSizes> {
    return new Promise((resolve) => this.waiting.set(sessionToken, resolve));
  }

  /** Hands the sizes to the page load waiting for them; false when none is. */
  deliver(sessionToken: string, sizes: TChartSizes): boolean {
    const resolve = this.waiting.get(sessionToken);
    if (!resolve) return false;
    this.waiting.delete(sessionToken);
    resolve(sizes);
    return true;
  }

  forget(sessionToken: string): void {
    this.waiting.delete(sessionToken);
  }
}

/** `promise`'s value, or undefined when it takes longer than `ms`. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
