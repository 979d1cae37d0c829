import type { UseQueryResult } from "@tanstack/react-query";
import { SearchIcon, TrashIcon } from "lucide-react";
import { Fragment, useEffect, useId, useState } from "react";
import type { MouseEvent, ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router";

import { cn } from "@/components/ui/cn";
import { controlClasses } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { noticeFrom } from "@/lib/notice";
import { pageCount, pageRangeText } from "@/lib/paging";
import type { TListPage } from "@/lib/paging";
import type { useListState } from "@/lib/use-list-state";

import { ActionScope } from "./action-scope";
import { ListBody } from "./list-body";
import { Pagination } from "./pagination";

export type TColumn<T> = {
  header: string;
  cell: (row: T) => ReactNode;
  /** Classes of the column's cells (e.g. to hide a column on phones). */
  className?: string;
};

/**
 * An email address in a narrow column: it wraps after the '@' and the domain's dots first
 * ("olivia.bennett@" / "example.com"), and anywhere only when a part is still too long.
 */
export function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  const parts = at < 0 ? [email] : [email.slice(0, at + 1), ...email.slice(at + 1).split(/(?<=\.)/)];
  return (
    <span className="[overflow-wrap:anywhere]">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

/** Where a row leads: the edit screen, with the row passed along in the navigation state. */
export type TRowLink = { to: string; state: unknown };

/** What the table shows of each row, and what a row offers. */
type TTableProps<T> = {
  columns: ReadonlyArray<TColumn<T>>;
  rowKey: (row: T) => string | number;
  rowLink: (row: T) => TRowLink;
  /** The label of the row's link (first column) for screen readers, e.g. "Edit client CL-1001". */
  rowLinkLabel: (row: T) => string;
  actionsHeader: string;
  /** Actions of a row shown before Delete (e.g. the workbook list's Preview). */
  rowActions?: (row: T) => ReactNode;
  onDelete: (row: T) => void;
  /** What the Delete button of a row says to screen readers after "Delete", e.g. "client CL-1001". */
  deleteLabel: (row: T) => string;
};

type TListViewProps<T> = TTableProps<T> & {
  /** The table's caption for screen readers, e.g. "Clients". */
  caption: string;
  searchLabel: string;
  searchPlaceholder: string;
  list: ReturnType<typeof useListState>;
  query: UseQueryResult<TListPage<T>>;
  emptyText: string;
  loadErrorFallback: string;
};

/**
 * A back-office list: search box, table, paging, and the confirmation passed along by the last save.
 * 'Loading...' until the first page arrives; a load error replaces the table with its message.
 * A row click opens the edit screen; the first cell is also a link, so keyboards get there too.
 */
export function ListView<T>({
  caption,
  searchLabel,
  searchPlaceholder,
  list,
  query,
  emptyText,
  loadErrorFallback,
  ...table
}: TListViewProps<T>) {
  const { notice, dismissNotice } = useSavedNotice();
  const page = query.data;
  const { setPage } = list;

  // The page emptied (its last rows deleted, or a shorter result): show the last page that has rows.
  const lastPage = page ? pageCount(page.total, list.limit) : 1;
  const pageIsPastTheEnd = page !== undefined && page.rows.length === 0 && list.page > lastPage;
  useEffect(() => {
    if (pageIsPastTheEnd) setPage(lastPage);
  }, [pageIsPastTheEnd, lastPage, setPage]);

  const body = (
    <ListBody
      query={query}
      errorFallback={loadErrorFallback}
      empty={page?.rows.length === 0}
      emptyText={list.q ? `${emptyText.replace(/\.$/, "")} matching “${list.q}”.` : emptyText}
    >
      {page ? (
        <ListTable caption={caption} rows={page.rows} dimmed={query.isPlaceholderData} {...table} />
      ) : null}
    </ListBody>
  );

  return (
    <div
      className="space-y-4"
      onClickCapture={(event) => {
        if ((event.target as Element).closest("button, a")) dismissNotice();
      }}
    >
      {notice ? <FormMessage tone="success">{notice}</FormMessage> : null}
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between">
          <ListSearch
            label={searchLabel}
            placeholder={searchPlaceholder}
            value={list.draft}
            onChange={(value) => {
              dismissNotice();
              list.setDraft(value);
            }}
          />
          {query.isFetching && !query.isPending ? (
            <span className="flex items-center gap-2 text-xs text-slate-500">
              <Spinner className="size-3.5" />
              Updating...
            </span>
          ) : null}
        </div>
        <ActionScope>{body}</ActionScope>
        {page && !query.isError && page.total > 0 ? (
          <Pagination
            page={list.page}
            lastPage={lastPage}
            rangeText={pageRangeText({ offset: page.offset, rows: page.rows.length, total: page.total })}
            onPageChange={setPage}
            disabled={query.isPlaceholderData}
          />
        ) : null}
      </div>
    </div>
  );
}

/**
 * The confirmation a save passed along: it shows until the person's next action here (a button, a link, a
 * search).
 */
function useSavedNotice() {
  const location = useLocation();
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const notice = dismissedFor === location.key ? undefined : noticeFrom(location.state);
  const dismissNotice = () => {
    if (notice) setDismissedFor(location.key);
  };
  return { notice, dismissNotice };
}

function ListSearch({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const searchId = useId();
  return (
    <div className="relative w-full sm:max-w-sm">
      <label htmlFor={searchId} className="sr-only">
        {label}
      </label>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
      <input
        id={searchId}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        maxLength={100}
        autoComplete="off"
        className={cn(controlClasses, "h-10 border-slate-300 pl-9")}
      />
    </div>
  );
}

type TListTableProps<T> = TTableProps<T> & {
  caption: string;
  rows: ReadonlyArray<T>;
  /** The rows are the previous page's, shown while the next one loads. */
  dimmed: boolean;
};

/** The rows: a table from md up; on phones every row becomes a card of label/value lines (same markup). */
function ListTable<T>({
  caption,
  rows,
  dimmed,
  columns,
  rowKey,
  rowLink,
  rowLinkLabel,
  actionsHeader,
  rowActions,
  onDelete,
  deleteLabel,
}: TListTableProps<T>) {
  const navigate = useNavigate();
  const openRow = (event: MouseEvent<HTMLTableRowElement>, row: T) => {
    // Clicks on the row's link or Delete button do their own thing.
    if ((event.target as Element).closest("a, button")) return;
    const { to, state } = rowLink(row);
    void navigate(to, { state });
  };

  return (
    <div className="md:overflow-x-auto">
      <table className="w-full text-left text-sm max-md:block md:min-w-[44rem]">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50/80 text-xs font-semibold text-slate-600 max-md:sr-only">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={cn("px-4 py-3 whitespace-nowrap", column.className)}
              >
                {column.header}
              </th>
            ))}
            <th scope="col" className="px-4 py-3 text-right whitespace-nowrap">
              {actionsHeader}
            </th>
          </tr>
        </thead>
        <tbody className={cn("divide-y divide-slate-100 max-md:block", dimmed && "opacity-60")}>
          {rows.map((row) => {
            const link = rowLink(row);
            return (
              <tr
                key={rowKey(row)}
                onClick={(event) => openRow(event, row)}
                className="cursor-pointer transition-colors hover:bg-navy-50/60 max-md:block max-md:px-4 max-md:py-3"
              >
                {columns.map((column, index) => (
                  <td
                    key={column.header}
                    data-label={column.header}
                    className={cn(
                      "px-4 py-3 align-middle text-slate-700",
                      "max-md:flex max-md:gap-3 max-md:px-0 max-md:py-1 max-md:before:w-28 max-md:before:shrink-0 max-md:before:text-slate-500 max-md:before:content-[attr(data-label)]",
                      column.className,
                    )}
                  >
                    {index === 0 ? (
                      <Link
                        to={link.to}
                        state={link.state}
                        aria-label={rowLinkLabel(row)}
                        className="rounded font-semibold text-navy-900 underline-offset-4 hover:underline"
                      >
                        {column.cell(row)}
                      </Link>
                    ) : (
                      <span className="min-w-0">{column.cell(row)}</span>
                    )}
                  </td>
                ))}
                <td className="px-4 py-2 text-right max-md:block max-md:px-0 max-md:pt-2 max-md:pb-0 max-md:text-left">
                  {rowActions ? rowActions(row) : null}
                  <button
                    type="button"
                    onClick={() => onDelete(row)}
                    className="inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-red-700 transition-colors hover:bg-red-50 max-md:-ml-2.5"
                  >
                    <TrashIcon className="size-4" />
                    Delete<span className="sr-only"> {deleteLabel(row)}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
