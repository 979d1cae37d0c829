import { ChevronDownIcon } from "lucide-react";
import { Fragment, useId, useState } from "react";

import type { TAuditEntry } from "@portal/contracts";

import { cn } from "@/components/ui/cn";

import {
  AUDIT_OUTCOME_LABELS,
  actorText,
  changedFields,
  jsonText,
  targetText,
  valueText,
} from "../utils/audit-labels";

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

const OUTCOME_CLASSES: Record<string, string> = {
  success: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  failure: "bg-red-50 text-red-700 ring-red-200",
  denied: "bg-amber-50 text-amber-900 ring-amber-200",
  rate_limited: "bg-amber-50 text-amber-900 ring-amber-200",
};

function Outcome({ outcome }: { outcome: string }) {
  return (
    <span
      className={cn(
        "inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
        OUTCOME_CLASSES[outcome] ?? "bg-slate-50 text-slate-700 ring-slate-200",
      )}
    >
      {AUDIT_OUTCOME_LABELS[outcome] ?? outcome}
    </span>
  );
}

function JsonBlock({ title, value }: { title: string; value: unknown }) {
  return (
    <div className="min-w-0">
      <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">{title}</h3>
      <pre className="max-h-72 overflow-auto rounded-lg border border-slate-200 bg-white p-3 font-mono text-xs whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]">
        {jsonText(value)}
      </pre>
    </div>
  );
}

/** The expanded row: what changed (before → after), the event's details, and where the request came from. */
function EntryDetails({ entry }: { entry: TAuditEntry }) {
  const facts: [string, string | number | null][] = [
    ["Entry", entry.id],
    ["Chain position", entry.chain_seq ?? "Before the chain"],
    ["Account id", entry.actor_user_id],
    ["IP address", entry.ip],
    ["Browser", entry.user_agent],
    ["Request id", entry.request_id],
  ];
  const changes = changedFields(entry.before, entry.after);
  return (
    <div className="space-y-4 bg-slate-50/70 px-4 py-4">
      {changes && changes.length > 0 ? (
        <div className="min-w-0">
          <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">Changed</h3>
          <ul className="space-y-1 text-sm">
            {changes.map((change) => (
              <li key={change.field} className="[overflow-wrap:anywhere]">
                <code className="font-mono text-xs text-slate-600">{change.field}</code>{" "}
                <del className="text-red-700">{valueText(change.before)}</del>
                <span aria-hidden="true"> → </span>
                <span className="sr-only"> changed to </span>
                <ins className="text-emerald-800 no-underline">{valueText(change.after)}</ins>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-3">
        <JsonBlock title="Before" value={entry.before} />
        <JsonBlock title="After" value={entry.after} />
        <JsonBlock title="Details" value={entry.details} />
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-xs sm:grid-cols-2 lg:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label} className="flex min-w-0 gap-2">
            <dt className="shrink-0 text-slate-600">{label}</dt>
            <dd className="min-w-0 text-slate-900 [overflow-wrap:anywhere]">{value ?? "—"}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

const HEADERS = ["When", "Action", "Outcome", "Who", "About"] as const;

/** The audit entries of one page, newest first; a row opens to show its before/after. */
export function AuditTable({ rows, dimmed }: { rows: TAuditEntry[]; dimmed: boolean }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const baseId = useId();
  const toggle = (id: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const cell =
    "px-4 py-3 align-top text-slate-700 max-md:flex max-md:gap-3 max-md:px-0 max-md:py-1 max-md:before:w-20 max-md:before:shrink-0 max-md:before:text-slate-500 max-md:before:content-[attr(data-label)]";

  return (
    <table className="w-full text-left text-sm max-md:block">
      <caption className="sr-only">Audit log entries, newest first</caption>
      <thead className="border-b border-slate-200 bg-slate-50/80 text-xs font-semibold text-slate-600 max-md:sr-only">
        <tr>
          {HEADERS.map((h) => (
            <th key={h} scope="col" className="px-4 py-3 whitespace-nowrap">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={cn("divide-y divide-slate-100 max-md:block", dimmed && "opacity-60")}>
        {rows.map((entry) => {
          const expanded = open.has(entry.id);
          const detailsId = `${baseId}-${entry.id}`;
          return (
            <Fragment key={entry.id}>
              <tr className="max-md:block max-md:px-4 max-md:py-3">
                <td data-label="When" className={cn(cell, "md:whitespace-nowrap")}>
                  <button
                    type="button"
                    aria-expanded={expanded}
                    aria-controls={detailsId}
                    onClick={() => toggle(entry.id)}
                    className="inline-flex items-start gap-1.5 rounded text-left font-medium text-navy-900 underline-offset-4 hover:underline"
                  >
                    <ChevronDownIcon
                      className={cn("mt-0.5 size-4 shrink-0 transition-transform", !expanded && "-rotate-90")}
                    />
                    <time dateTime={entry.occurred_at}>{WHEN.format(new Date(entry.occurred_at))}</time>
                    <span className="sr-only">
                      : {expanded ? "hide" : "show"} details of entry {entry.id}
                    </span>
                  </button>
                </td>
                <td data-label="Action" className={cell}>
                  <code className="font-mono text-xs text-slate-800">{entry.action}</code>
                </td>
                <td data-label="Outcome" className={cell}>
                  <Outcome outcome={entry.outcome} />
                </td>
                <td data-label="Who" className={cn(cell, "[overflow-wrap:anywhere]")}>
                  {actorText(entry)}
                </td>
                <td data-label="About" className={cn(cell, "[overflow-wrap:anywhere]")}>
                  {targetText(entry)}
                </td>
              </tr>
              <tr id={detailsId} hidden={!expanded} className="max-md:block">
                <td colSpan={HEADERS.length} className="p-0 max-md:block">
                  {expanded ? <EntryDetails entry={entry} /> : null}
                </td>
              </tr>
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
