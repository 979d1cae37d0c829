import { RefreshCwIcon } from "lucide-react";
import { useEffect } from "react";
import type { ReactNode } from "react";
import { Link, useSearchParams } from "react-router";

import { SYNC_FILTERS } from "@portal/contracts";
import type { TSyncItem } from "@portal/contracts";

import { ListBody } from "@/components/admin/list-body";
import { PageHeader } from "@/components/admin/page-header";
import { Pagination } from "@/components/admin/pagination";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";
import { pageCount, pageFromParam, pageRangeText } from "@/lib/paging";

import { LOAD_SYNC_FAILED, useSyncChanges } from "../api/get-sync";
import type { TSyncFilter } from "../api/get-sync";
import { LOAD_SYNC_STATUS_FAILED, useSyncStatus } from "../api/get-sync-status";
import { SYNC_RETRY_FAILED, useRetryAllFailedSync, useRetrySyncChange } from "../api/retry-sync";

const PAGE_SIZE = 50;

const FILTER_LABELS: Record<TSyncFilter, string> = { all: "All", failed: "Failed", waiting: "Waiting" };

const KIND_LABELS: Record<TSyncItem["kind"], string> = {
  "member.upsert": "Member update",
  "member.deactivate": "Member deactivation",
  "member.link": "Member lookup",
  "team.upsert": "Team",
  "workbook.share": "Workbook sharing",
  "workbook.unshare": "Workbook unsharing",
};

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const when = (iso: string) => WHEN.format(new Date(iso));

/** Who or what a change is about: the client or employee (linked), a team, or someone since deleted. */
function Subject({ item }: { item: TSyncItem }) {
  if (item.kind === "team.upsert") return <span>Team “{item.subject}”</span>;
  if (item.kind === "workbook.share" || item.kind === "workbook.unshare") {
    return (
      <span className="[overflow-wrap:anywhere]">
        Workbook “{item.subject}”{item.team_name ? <> with team “{item.team_name}”</> : null}
      </span>
    );
  }
  if (!item.person) {
    return (
      <span className="[overflow-wrap:anywhere]">
        {item.subject} <span className="text-slate-500">(deleted)</span>
      </span>
    );
  }
  const { type, business_id: businessId, name } = item.person;
  return (
    <Link
      to={`/admin/edit-${type}?id=${encodeURIComponent(businessId)}`}
      className="font-medium text-navy-900 underline-offset-4 hover:underline"
    >
      {name}{" "}
      <span className="font-normal text-slate-600">
        ({type} {businessId})
      </span>
    </Link>
  );
}

/** The row's state in words: refused, being sent, waiting for the BI service since …, or queued. */
function State({ item }: { item: TSyncItem }) {
  if (item.status === "failed") return <span className="font-semibold text-red-700">Failed</span>;
  if (item.in_flight) return <span className="text-slate-700">Sending…</span>;
  if (item.waiting_since) {
    return (
      <span className="text-amber-800">Waiting for the BI service since {when(item.waiting_since)}</span>
    );
  }
  return <span className="text-slate-700">Queued</span>;
}

function RetryButton({ item }: { item: TSyncItem }) {
  const retry = useRetrySyncChange();
  const label = `${KIND_LABELS[item.kind]} of ${item.subject}`;
  return (
    <span className="flex flex-col items-start gap-1 md:items-end">
      <Button
        variant="secondary"
        size="xs"
        isLoading={retry.isPending}
        disabled={item.in_flight}
        onClick={() => retry.mutate(item.id)}
      >
        {retry.isPending ? null : <RefreshCwIcon className="size-3.5" />}
        Retry<span className="sr-only"> {label}</span>
      </Button>
      {retry.isError ? (
        <span role="alert" className="text-xs text-red-700">
          {getErrorMessage(retry.error, SYNC_RETRY_FAILED)}
        </span>
      ) : null}
    </span>
  );
}

/** Whether the BI service answers, the queue's counts, and Retry all failed. */
function Overview() {
  const status = useSyncStatus();
  const retryAll = useRetryAllFailedSync();
  if (status.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner className="size-4" /> Checking the BI service...
      </p>
    );
  }
  if (status.isError) {
    return <FormMessage tone="error">{getErrorMessage(status.error, LOAD_SYNC_STATUS_FAILED)}</FormMessage>;
  }
  const s = status.data;
  return (
    <div className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:flex sm:flex-wrap sm:items-baseline">
        <div className="col-span-2">
          <dt className="sr-only">BI service</dt>
          <dd className="flex flex-wrap items-center gap-x-2 font-semibold">
            <span
              aria-hidden="true"
              className={cn("size-2.5 shrink-0 rounded-full", s.reachable ? "bg-emerald-500" : "bg-red-600")}
            />
            <span className={s.reachable ? "text-emerald-800" : "text-red-700"}>
              {s.reachable ? "The BI service is reachable" : "The BI service cannot be reached"}
            </span>
            <span className="basis-full pl-4.5 font-normal text-slate-500 sm:basis-auto sm:pl-0">
              (checked {when(s.checked_at)})
            </span>
          </dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-slate-600">Pending</dt>
          <dd className="font-semibold text-slate-900">{s.pending.toLocaleString()}</dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-slate-600">Waiting</dt>
          <dd className="font-semibold text-slate-900">
            {s.waiting.toLocaleString()}
            {s.waiting_since ? (
              <span className="font-normal text-slate-600"> since {when(s.waiting_since)}</span>
            ) : null}
          </dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-slate-600">Failed</dt>
          <dd className={cn("font-semibold", s.failed > 0 ? "text-red-700" : "text-slate-900")}>
            {s.failed.toLocaleString()}
          </dd>
        </div>
      </dl>
      <div className="flex flex-col items-start gap-1 sm:items-end">
        <Button
          variant="secondary"
          size="sm"
          disabled={s.failed === 0}
          isLoading={retryAll.isPending}
          onClick={() => retryAll.mutate()}
        >
          Retry all failed
        </Button>
        {retryAll.data ? (
          <span role="status" className="text-xs text-slate-600">
            {retryAll.data.message}
          </span>
        ) : null}
        {retryAll.isError ? (
          <span role="alert" className="text-xs text-red-700">
            {getErrorMessage(retryAll.error, SYNC_RETRY_FAILED)}
          </span>
        ) : null}
      </div>
    </div>
  );
}

/**
 * The clients and employees whose Sigma member also signs in to Sigma directly: linked, and never changed
 * by the portal (their account type, teams and attributes are the firm's to manage in Sigma).
 */
function ManagedInSigma() {
  const status = useSyncStatus();
  const people = status.data?.managed_in_sigma ?? [];
  if (people.length === 0) return null;
  return (
    <section
      aria-labelledby="managed-in-sigma"
      className="rounded-2xl border border-slate-200 bg-white p-4 text-sm shadow-sm"
    >
      <h2 id="managed-in-sigma" className="font-semibold text-navy-950">
        Managed in Sigma
      </h2>
      <p className="mt-1 text-slate-600">
        These people also sign in to Sigma directly. The portal links them but never changes their account
        type, teams or attributes, and never deactivates them: manage them in Sigma.
      </p>
      <ul className="mt-3 flex flex-wrap gap-2">
        {people.map((p) => (
          <li key={`${p.type}:${p.business_id}`}>
            <Link
              to={`/admin/edit-${p.type}?id=${encodeURIComponent(p.business_id)}`}
              className="inline-block rounded-full bg-slate-100 px-3 py-1 text-navy-900 underline-offset-4 hover:underline"
            >
              {p.name}
              <span className="ml-1 text-slate-600">
                ({p.type} {p.business_id})
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * /admin/sync: every change not yet delivered to the BI service, or refused by it, in the order they go.
 * Changes are sent by themselves and retried while the service is away; Retry sends one again at once.
 */
export function SyncPage() {
  const [params, setParams] = useSearchParams();
  const status = (SYNC_FILTERS as readonly string[]).includes(params.get("status") ?? "")
    ? (params.get("status") as TSyncFilter)
    : "all";
  const page = pageFromParam(params.get("page"));
  const query = useSyncChanges({ status, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const data = query.data;
  const lastPage = data ? pageCount(data.total, PAGE_SIZE) : 1;

  const setPage = (next: number) =>
    setParams((previous) => {
      const updated = new URLSearchParams(previous);
      if (next > 1) updated.set("page", String(next));
      else updated.delete("page");
      return updated;
    });
  const setStatus = (next: TSyncFilter) =>
    setParams(() => (next === "all" ? new URLSearchParams() : new URLSearchParams({ status: next })));

  // Rows went out while the admin looked at a later page: show the last page that has rows.
  const pastTheEnd = data !== undefined && data.rows.length === 0 && page > lastPage;
  useEffect(() => {
    if (pastTheEnd) setPage(lastPage);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pastTheEnd, lastPage]);

  let table: ReactNode = null;
  if (data) {
    const cell =
      "px-4 py-3 align-top text-slate-700 max-md:flex max-md:gap-3 max-md:px-0 max-md:py-1 max-md:before:w-28 max-md:before:shrink-0 max-md:before:text-slate-500 max-md:before:content-[attr(data-label)]";
    table = (
      <table className="w-full text-left text-sm max-md:block">
        <caption className="sr-only">Changes on their way to the BI service</caption>
        <thead className="border-b border-slate-200 bg-slate-50/80 text-xs font-semibold text-slate-600 max-md:sr-only">
          <tr>
            {["Change", "Person or team", "State", "Attempts", "Last answer", "Next try"].map((h) => (
              <th key={h} scope="col" className="px-4 py-3 whitespace-nowrap">
                {h}
              </th>
            ))}
            <th scope="col" className="px-4 py-3 text-right">
              Action
            </th>
          </tr>
        </thead>
        <tbody
          className={cn("divide-y divide-slate-100 max-md:block", query.isPlaceholderData && "opacity-60")}
        >
          {data.rows.map((item) => (
            <tr key={item.id} className="max-md:block max-md:px-4 max-md:py-3">
              <td data-label="Change" className={cn(cell, "whitespace-nowrap")}>
                {KIND_LABELS[item.kind]}
              </td>
              <td data-label="Person or team" className={cell}>
                <Subject item={item} />
              </td>
              <td data-label="State" className={cell}>
                <State item={item} />
              </td>
              <td data-label="Attempts" className={cell}>
                {item.attempts}
              </td>
              <td data-label="Last answer" className={cn(cell, "max-w-xs")}>
                <span className="line-clamp-3 break-words" title={item.last_error ?? undefined}>
                  {item.last_error ?? "—"}
                </span>
              </td>
              <td data-label="Next try" className={cn(cell, "whitespace-nowrap")}>
                {item.status === "failed" ? "After Retry" : when(item.next_attempt_at)}
              </td>
              <td className="px-4 py-2 text-right align-top max-md:block max-md:px-0 max-md:pt-2 max-md:text-left">
                <RetryButton item={item} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  const body = (
    <ListBody
      query={query}
      errorFallback={LOAD_SYNC_FAILED}
      empty={data?.rows.length === 0}
      emptyText={
        status === "failed"
          ? "No change has been refused by the BI service."
          : status === "waiting"
            ? "No change is waiting for the BI service."
            : "Everything has reached the BI service."
      }
    >
      {table}
    </ListBody>
  );

  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <PageHeader
        title="BI sync"
        description="Changes on their way to the BI service, and any it refused. They are sent by themselves, and retried while the service is away; Retry sends one again at once."
      />
      <Overview />
      <ManagedInSigma />
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
          <div role="group" aria-label="Show" className="inline-flex rounded-lg bg-slate-100 p-1">
            {SYNC_FILTERS.map((f) => (
              <button
                key={f}
                type="button"
                aria-pressed={status === f}
                onClick={() => setStatus(f)}
                className={cn(
                  "rounded-md px-3 py-1.5 text-sm font-medium",
                  status === f ? "bg-white text-navy-950 shadow-sm" : "text-slate-600 hover:text-slate-900",
                )}
              >
                {FILTER_LABELS[f]}
              </button>
            ))}
          </div>
          {query.isFetching && !query.isPending ? (
            <span className="flex items-center gap-2 text-xs text-slate-500">
              <Spinner className="size-3.5" />
              Updating...
            </span>
          ) : null}
        </div>
        {body}
        {data && !query.isError && data.total > 0 ? (
          <Pagination
            page={page}
            lastPage={lastPage}
            rangeText={pageRangeText({ offset: data.offset, rows: data.rows.length, total: data.total })}
            onPageChange={setPage}
            disabled={query.isPlaceholderData}
          />
        ) : null}
      </div>
    </section>
  );
}
