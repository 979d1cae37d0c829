import { ZWorkbookStartResponseSchema } from "@portal/contracts";
import type { TWorkbook, TWorkbookStartResponse } from "@portal/contracts";

import { readApiAnswer } from "@/lib/api-client";

import { takeWorkbookStart } from "./start-request";

/** A one-time embed URL the start of the view brought, and when it arrived (the browser's clock, ms). */
export type TStartedEmbed = { url: string; receivedAt: number };

/**
 * How long the start's URL waits for its view. The frame's renewal is planned from the URL's arrival, so a
 * later view would still be renewed in time; past this, the person went elsewhere first and a new URL is
 * minted when they come back, as ever.
 */
export const STARTED_EMBED_MAX_AGE_MS = 30_000;

let answer: Promise<TWorkbookStartResponse | null> | undefined;
let listTaken = false;
let embed: (TStartedEmbed & { workbook: string; clientId: number | null }) | null = null;

/**
 * When the answer arrived: the earliest response of its URL in the page's Resource Timing (the page's preload
 * may have had it long before the SPA asked), else now. Never later than the real arrival matters: the frame
 * is renewed before its session ends, counted from there (utils/embed-session.ts).
 */
function arrivalOf(url: string): number {
  const starts = performance
    .getEntriesByName(url, "resource")
    .map((entry) => (entry as PerformanceResourceTiming).responseStart)
    .filter((start) => start > 0);
  return starts.length > 0 ? performance.timeOrigin + Math.min(...starts) : Date.now();
}

/** The start request's answer (decision 024), read once; null when none was sent or it failed. */
function startedView(): Promise<TWorkbookStartResponse | null> {
  answer ??= (async () => {
    const sent = takeWorkbookStart();
    if (!sent) return null;
    try {
      const response = await sent;
      const view = await readApiAnswer(response, { schema: ZWorkbookStartResponseSchema, fallbackError: "" });
      if (view.embedUrl && view.workbook) {
        const receivedAt = arrivalOf(response.url);
        embed = { url: view.embedUrl, receivedAt, workbook: view.workbook, clientId: view.clientId };
      }
      return view;
    } catch {
      // The view asks the usual way, which says what went wrong.
      return null;
    }
  })();
  return answer;
}

/**
 * The list of `clientId`'s workbooks (null: the person's own) the start of the view brought, for the list's
 * first load only; null when it brought none for that client, and the list is asked for as ever.
 */
export async function startedWorkbooks(clientId: number | null): Promise<TWorkbook[] | null> {
  const view = await startedView();
  if (!view || listTaken || view.clientId !== clientId) return null;
  listTaken = true;
  return view.workbooks;
}

/**
 * The one-time URL the start of the view minted for `workbook` of `clientId`, to the first frame that asks for
 * that workbook of that client, recently enough; null otherwise (that frame mints its own). A URL is used once:
 * after this, only new mints.
 */
export function takeStartedEmbed(workbook: string, clientId: number | null): TStartedEmbed | null {
  const found = embed;
  if (!found || found.workbook !== workbook || found.clientId !== clientId) return null;
  embed = null;
  if (Date.now() - found.receivedAt > STARTED_EMBED_MAX_AGE_MS) return null;
  return { url: found.url, receivedAt: found.receivedAt };
}
