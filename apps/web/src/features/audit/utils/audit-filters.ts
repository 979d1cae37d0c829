import { z } from "zod";

/** The audit log's filters as the address bar and the filter form hold them; dates are local days. */
export type TAuditFilters = {
  person?: string | undefined;
  action?: string | undefined;
  outcome?: string | undefined;
  /** YYYY-MM-DD, the first local day shown. */
  from?: string | undefined;
  /** YYYY-MM-DD, the last local day shown (included). */
  to?: string | undefined;
};

/** Where the page starts: older than a row (`before`) or newer than it (`after`); none is the newest. */
export type TAuditCursor = { before: number } | { after: number } | undefined;

const FILTER_NAMES = ["person", "action", "outcome", "from", "to"] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function filtersFromParams(params: URLSearchParams): TAuditFilters {
  const filters: TAuditFilters = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

export function cursorFromParams(params: URLSearchParams): TAuditCursor {
  const before = Number(params.get("before"));
  if (Number.isSafeInteger(before) && before > 0) return { before };
  const after = Number(params.get("after"));
  if (Number.isSafeInteger(after) && after > 0) return { after };
  return undefined;
}

/** The address bar's query for filters and a cursor; empty values are left out. */
export function paramsFor(filters: TAuditFilters, cursor?: TAuditCursor): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = filters[name]?.trim();
    if (value) params.set(name, value);
  }
  if (cursor && "before" in cursor) params.set("before", String(cursor.before));
  if (cursor && "after" in cursor) params.set("after", String(cursor.after));
  return params;
}

/** Midnight at the start of a local day, as an ISO instant (the API reads days in UTC otherwise). */
export function localDayStart(day: string, plusDays = 0): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, date + plusDays).toISOString();
}

/**
 * The API's query for the filters: the person's email, action and outcome as they are; the local days
 * become instants, `to` exclusive at the start of the day after the last one shown.
 */
export function apiParamsFor(filters: TAuditFilters, cursor?: TAuditCursor): URLSearchParams {
  const params = paramsFor({ ...filters, from: undefined, to: undefined }, cursor);
  if (filters.from && DAY.test(filters.from)) params.set("from", localDayStart(filters.from));
  if (filters.to && DAY.test(filters.to)) params.set("to", localDayStart(filters.to, 1));
  return params;
}

/** The filter form: what the admin may submit (the API checks the same and more). */
export const ZAuditFilterFormSchema = z
  .object({
    person: z
      .string()
      .trim()
      .max(254, "Enter at most 254 characters.")
      .refine((value) => value === "" || z.email().safeParse(value).success, "Enter a valid email address."),
    action: z.string(),
    outcome: z.string(),
    from: z.string(),
    to: z.string(),
  })
  .refine((form) => !form.from || !form.to || form.from <= form.to, {
    message: "The end date must not be before the start date.",
    path: ["to"],
  });
export type TAuditFilterForm = z.infer<typeof ZAuditFilterFormSchema>;

export const formValuesOf = (filters: TAuditFilters): TAuditFilterForm => ({
  person: filters.person ?? "",
  action: filters.action ?? "",
  outcome: filters.outcome ?? "",
  from: filters.from ?? "",
  to: filters.to ?? "",
});

/** The Link header's neighbours: `rel="next"` holds `before=<id>`, `rel="prev"` holds `after=<id>`. */
export function cursorsFromLink(link: string | null): { older: number | null; newer: number | null } {
  const find = (rel: string, name: string) => {
    for (const part of (link ?? "").split(",")) {
      if (!part.includes(`rel="${rel}"`)) continue;
      const match = new RegExp(`[?&]${name}=(\\d+)`).exec(part);
      if (match) return Number(match[1]);
    }
    return null;
  };
  return { older: find("next", "before"), newer: find("prev", "after") };
}

/** The file name in `Content-Disposition: attachment; filename="…"`, else `fallback`. */
export function attachmentName(header: string | null, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(header ?? "");
  return match?.[1] ?? fallback;
}

/** Newlines in a chunk of the CSV: the rows received so far, once the header line is taken off. */
export function countLines(chunk: Uint8Array): number {
  let lines = 0;
  for (const byte of chunk) if (byte === 10) lines += 1;
  return lines;
}
