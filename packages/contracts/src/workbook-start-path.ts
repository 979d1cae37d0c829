// Where a workbook view starts (decision 024). Kept apart from the schemas (`workbook-start.ts`), without zod: the
// SPA's entry and the server's page answer both build this path before anything else has loaded.

/** GET /api/me/workbook-start: the answer is `ZWorkbookStartResponseSchema`. */
export const WORKBOOK_START_PATH = "/api/me/workbook-start";

const WORKBOOK_PAGE = /^\/workbooks\/([^/]+)\/?$/;
/** `?client=` as the API reads it (`ZViewClientQuerySchema`): 1 to 2,147,483,647, digits only. */
const CLIENT_NUMBER = /^[1-9][0-9]{0,9}$/;
const MAX_CLIENT_NUMBER = 2_147_483_647;

/**
 * The start request of a page that shows a workbook, `/` or `/workbooks/{name}` (with the client it views,
 * `?client=`), or null for any other page and for an address the SPA shows no workbook at (a `client` that is
 * no client's number). The SPA and the server's page answer build it from the same address, so the SPA's
 * request is the very one the page had the browser start (`Link: rel=preload`), byte for byte.
 */
export function workbookStartPath(pathname: string, search: string): string | null {
  let workbook: string | null = null;
  if (pathname !== "/") {
    const match = WORKBOOK_PAGE.exec(pathname);
    if (!match?.[1]) return null;
    try {
      workbook = decodeURIComponent(match[1]);
    } catch {
      return null;
    }
  }
  const client = new URLSearchParams(search).get("client");
  if (client !== null && !(CLIENT_NUMBER.test(client) && Number(client) <= MAX_CLIENT_NUMBER)) return null;
  const query = new URLSearchParams();
  if (workbook !== null) query.set("workbook", workbook);
  if (client !== null) query.set("client", client);
  const text = query.toString();
  return text ? `${WORKBOOK_START_PATH}?${text}` : WORKBOOK_START_PATH;
}
