import { workbookLabel } from "@portal/contracts";
import type { TDelegate, TDelegateStatus } from "@portal/contracts";

import { sinceText } from "@/lib/relative-time";

/** The status as people read it; the list also shows an icon, never the colour alone. */
export const STATUS_TEXT: Record<TDelegateStatus, string> = {
  invited: "Invited",
  active: "Active",
  expired: "Expired",
};

/**
 * An end date is chosen as a day and ends at the end of that day in UTC (the API's rule for a date), so it
 * is shown in UTC too: the day chosen, whatever the viewer's time zone.
 */
export const END_DATE = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });

export const NO_END_DATE = "No end date";
export const NOT_VIEWED_YET = "Not yet";

export function endDateText(expiresAt: string | null): string {
  return expiresAt === null ? NO_END_DATE : END_DATE.format(new Date(expiresAt));
}

/** "Not yet", "just now", "5 minutes ago", "3 hours ago", else the date and time. */
export function lastViewedText(lastViewedAt: string | null, now = Date.now()): string {
  return lastViewedAt === null ? NOT_VIEWED_YET : sinceText(lastViewedAt, now);
}

/** A workbook's name as people read it ("Portfolio Overview"), by its id. */
export type TWorkbookNames = ReadonlyMap<number, string>;

export function workbookNames(
  workbooks: ReadonlyArray<{ id: number; workbook_name: string }>,
): TWorkbookNames {
  return new Map(workbooks.map((workbook) => [workbook.id, workbookLabel(workbook.workbook_name)]));
}

/**
 * The names of a client's assigned workbooks, in their order, from the catalogue's; one the catalogue did not
 * name (not loaded) is "Workbook 7". Workbooks not assigned to the client are left out: they are shown to nobody.
 */
export function assignedNames(workbookIds: ReadonlyArray<number>, catalogue: TWorkbookNames): TWorkbookNames {
  return new Map(workbookIds.map((id) => [id, catalogue.get(id) ?? `Workbook ${id}`]));
}

/** The workbooks the forms offer to share, in the order given: id and name. */
export function shareableWorkbooks(names: TWorkbookNames): Array<{ id: number; name: string }> {
  return [...names].map(([id, name]) => ({ id, name }));
}

/**
 * What is shared: "All workbooks", or the names of the chosen ones. A chosen workbook the client no longer has
 * (unassigned since) is shown to nobody, so it is only counted.
 */
export function sharedText(
  delegate: Pick<TDelegate, "all_workbooks" | "workbook_ids">,
  names: TWorkbookNames,
): string {
  if (delegate.all_workbooks) return "All workbooks";
  const known = delegate.workbook_ids.flatMap((id) => {
    const name = names.get(id);
    return name === undefined ? [] : [name];
  });
  const gone = delegate.workbook_ids.length - known.length;
  const goneText = `${gone} workbook${gone === 1 ? "" : "s"} no longer available`;
  if (known.length === 0) return gone === 0 ? "No workbooks" : goneText;
  return gone === 0 ? known.join(", ") : `${known.join(", ")} (and ${goneText})`;
}
