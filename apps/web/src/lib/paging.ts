import { DEFAULT_PAGE_SIZE } from "@portal/contracts";

/** One page of an admin list: the rows and the total from `X-Total-Count`. */
export type TListPage<T> = { rows: T[]; total: number; limit: number; offset: number };

export type TListParams = {
  q?: string | undefined;
  offset?: number;
  limit?: number;
  sort?: string | undefined;
};

/** The list's query string; blank search text and default values are left out so cache keys stay stable. */
export function listSearchParams({ q, offset = 0, limit = DEFAULT_PAGE_SIZE, sort }: TListParams): string {
  const params = new URLSearchParams();
  const text = q?.trim();
  if (text) params.set("q", text);
  if (offset > 0) params.set("offset", String(offset));
  if (limit !== DEFAULT_PAGE_SIZE) params.set("limit", String(limit));
  if (sort) params.set("sort", sort);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** `X-Total-Count` as a number; a missing or unreadable header counts what arrived (offset + rows). */
export function readTotal(header: string | null, offset: number, received: number): number {
  const total = header === null ? Number.NaN : Number(header);
  return Number.isSafeInteger(total) && total >= 0 ? Math.max(total, offset + received) : offset + received;
}

/**
 * A count as en-US writes it ("1,204"), without Intl: the first Intl object a page makes costs it 40–150 ms of
 * one task (the locale data loads), and a list shows its count on its first screen (decision 024).
 */
const count = {
  format: (n: number) => String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ","),
};

/** "Showing 1–50 of 1,204", or "No results" for an empty page. */
export function pageRangeText({
  offset,
  rows,
  total,
}: {
  offset: number;
  rows: number;
  total: number;
}): string {
  if (rows === 0) return total === 0 ? "No results" : `Showing 0 of ${count.format(total)}`;
  return `Showing ${count.format(offset + 1)}–${count.format(offset + rows)} of ${count.format(total)}`;
}

/** Page numbers are 1-based in the address bar (`?page=2`); anything unreadable is page 1. */
export function pageFromParam(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}
