import { workbookStartPath } from "@portal/contracts";

/**
 * GET /api/me/workbook-start: the start of the first workbook view of the page (decision 024), its workbook
 * list and its first frame's one-time URL in one answer. The server's page answer has the browser start this
 * very request (`Link: rel=preload`, the same path and credentials) for someone it will show a workbook, long
 * before the SPA could; the route guard sends it once the session has let the person in, and so takes that
 * answer. Only the page's first load asks: later views ask for their list and frame as ever. Nothing here
 * parses the answer (`start-view.ts` does, with the workbook screens' code): the route table's guard imports
 * this, so it stays free of zod and of the query cache.
 */
let asked = false;
let sent: Promise<Response> | undefined;

export function sendWorkbookStart(location: { pathname: string; search: string }): void {
  if (asked) return;
  asked = true;
  const path = workbookStartPath(location.pathname, location.search);
  if (!path) return;
  sent = fetch(path, { credentials: "include" });
  // Its failure is read where the answer is taken; unread, it is no error of the page.
  sent.catch(() => undefined);
}

/** The start request's answer, once: whoever reads it first owns it (undefined: none was sent). */
export function takeWorkbookStart(): Promise<Response> | undefined {
  const answer = sent;
  sent = undefined;
  return answer;
}
