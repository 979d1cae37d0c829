import type { UseQueryResult } from "@tanstack/react-query";
import { Fragment, useEffect, useId, useState } from "react";
import type { MouseEvent, ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { controlClasses } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";

import { ActionScope } from "../utils/action-scope";
import { noticeFrom } from "../utils/notice";
import { pageCount, pageRangeText } from "../utils/paging";
import type { TListPage } from "../utils/paging";
import type { useListState } from "../utils/use-list-state";
import { SearchIcon, TrashIcon } from "./admin-icons";
import { ListBody } from "./list-body";

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

type TListViewProps<T> = {
  /** The table's caption for screen readers, e.g. "Clients". */
  caption: string;
  searchLabel: string;
  searchPlaceholder: string;
  list: ReturnType<typeof useListState>;
  query: UseQueryResult<TListPage<T>>;
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
  columns,
  rowKey,
  rowLink,
  rowLinkLabel,
  actionsHeader,
  rowActions,
  onDelete,
  deleteLabel,
  emptyText,
  loadErrorFallback,
}: TListViewProps<T>) {
  const navigate = useNavigate();
  const location = useLocation();
  // The confirmation a save passed along shows until the person's next action here (a button, a link, a search).
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const notice = dismissedFor === location.key ? undefined : noticeFrom(location.state);
  const dismissNotice = () => {
    if (notice) setDismissedFor(location.key);
  };
  const searchId = useId();
  const page = query.data;
  const { setPage } = list;

  // The page emptied (its last rows deleted, or a shorter result): show the last page that has rows.
  const lastPage = page ? pageCount(page.total, list.limit) : 1;
  const pageIsPastTheEnd = page !== undefined && page.rows.length === 0 && list.page > lastPage;
  useEffect(() => {
    if (pageIsPastTheEnd) setPage(lastPage);
  }, [pageIsPastTheEnd, lastPage, setPage]);

  const openRow = (event: MouseEvent<HTMLTableRowElement>, row: T) => {
    // Clicks on the row's link or Delete button do their own thing.
    if ((event.target as Element).closest("a, button")) return;
    const { to, state } = rowLink(row);
    void navigate(to, { state });
  };

  let table: ReactNode = null;
  if (page) {
    // A table from md up; on phones every row becomes a card of label/value lines (same markup).
    table = (
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
          <tbody
            className={cn("divide-y divide-slate-100 max-md:block", query.isPlaceholderData && "opacity-60")}
          >
            {page.rows.map((row) => {
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
  const body = (
    <ListBody
      query={query}
      errorFallback={loadErrorFallback}
      empty={page?.rows.length === 0}
      emptyText={list.q ? `${emptyText.replace(/\.$/, "")} matching “${list.q}”.` : emptyText}
    >
      {table}
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
          <div className="relative w-full sm:max-w-sm">
            <label htmlFor={searchId} className="sr-only">
              {searchLabel}
            </label>
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
            <input
              id={searchId}
              type="search"
              value={list.draft}
              onChange={(event) => {
                dismissNotice();
                list.setDraft(event.target.value);
              }}
              placeholder={searchPlaceholder}
              maxLength={100}
              autoComplete="off"
              className={cn(controlClasses, "h-10 border-slate-300 pl-9")}
            />
          </div>
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

type TPaginationProps = {
  page: number;
  lastPage: number;
  rangeText: string;
  onPageChange: (page: number) => void;
  disabled: boolean;
};

export function Pagination({ page, lastPage, rangeText, onPageChange, disabled }: TPaginationProps) {
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
    >
      <p aria-live="polite" className="text-sm text-slate-600">
        {rangeText}
      </p>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled || page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          Previous
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled || page >= lastPage}
          onClick={() => onPageChange(page + 1)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}
