import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Link, useParams } from "react-router";

import { PEOPLE } from "@portal/contracts";
import type { TImportField, TImportJob } from "@portal/contracts";

import { PageHeader } from "@/components/admin/page-header";
import { Button, buttonClasses } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { controlClasses } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";
import { peopleQueryKey } from "@/lib/people-screens";

import { LOAD_IMPORT_FAILED, useImport } from "../api/get-import";
import { useRemapImport } from "../api/remap-import";
import { useStartImport } from "../api/start-import";
import {
  importFields,
  kindPlural,
  listPathOf,
  previewSummary,
  progressPercent,
  unmappedRequired,
  withColumn,
} from "../utils/import";

const STATUS_LABELS: Record<string, string> = {
  invalid: "Problem",
  skipped: "Skipped",
  failed: "Failed",
};

const failedRowsHref = (job: TImportJob) => `/api/admin/imports/${encodeURIComponent(job.id)}/failed.csv`;

/** Which column of the file goes to which field: one select per field, every row checked again on change. */
function ColumnMapping({ job }: { job: TImportJob }) {
  const remap = useRemapImport();
  const missing = unmappedRequired(job.kind, job.mapping);
  const change = (field: TImportField, value: string) =>
    remap.mutate({
      jobId: job.id,
      mapping: withColumn(job.mapping, field, value === "" ? null : Number(value)),
    });
  return (
    <section
      aria-labelledby="mapping-title"
      className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="mapping-title" className="text-base font-semibold text-navy-950">
        Columns
      </h2>
      <p className="mt-1 text-sm text-slate-600">Which column of {job.fileName} holds each field.</p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {importFields(job.kind).map(({ field, label, required }) => {
          const id = `map-${field}`;
          const value = job.mapping[field];
          return (
            <div key={field} className="space-y-1.5">
              <label htmlFor={id} className="block text-sm font-medium text-navy-900">
                {label}
                {required ? "" : " (optional)"}
              </label>
              <select
                id={id}
                value={value === undefined ? "" : String(value)}
                disabled={remap.isPending}
                aria-invalid={required && value === undefined ? true : undefined}
                onChange={(event) => change(field, event.target.value)}
                className={cn(
                  controlClasses,
                  "h-11",
                  required && value === undefined ? "border-red-400" : "border-slate-300",
                )}
              >
                <option value="">— not in the file —</option>
                {job.headers.map((header, index) => (
                  <option key={index} value={index}>
                    {header || `Column ${index + 1}`}
                  </option>
                ))}
              </select>
            </div>
          );
        })}
      </div>
      {missing.length > 0 ? (
        <p className="mt-4 text-sm text-red-700">Choose a column for {missing.join(", ")}.</p>
      ) : null}
      {remap.isError ? (
        <div className="mt-4">
          <FormMessage tone="error">
            {getErrorMessage(remap.error, "The columns could not be changed.")}
          </FormMessage>
        </div>
      ) : null}
    </section>
  );
}

/** The rows refused, skipped or failed, with the reason, in file order. */
function ProblemTable({ job, caption }: { job: TImportJob; caption: string }) {
  if (job.problems.length === 0) return null;
  const cell =
    "px-4 py-2.5 align-top text-slate-700 max-md:flex max-md:gap-3 max-md:px-0 max-md:py-0.5 max-md:before:w-24 max-md:before:shrink-0 max-md:before:text-slate-500 max-md:before:content-[attr(data-label)]";
  const idLabel = PEOPLE[job.kind].idLabel;
  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm max-md:block">
        <caption className="px-4 py-3 text-left text-sm font-semibold text-navy-950 max-md:block">
          {caption}
        </caption>
        <thead className="border-y border-slate-200 bg-slate-50/80 text-xs font-semibold text-slate-600 max-md:sr-only">
          <tr>
            {["Line", idLabel, "Email", "Outcome", "Reason"].map((h) => (
              <th key={h} scope="col" className="px-4 py-2.5 whitespace-nowrap">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 max-md:block">
          {job.problems.map((p) => (
            <tr key={p.row} className="max-md:block max-md:px-4 max-md:py-3">
              <td data-label="Line" className={cn(cell, "whitespace-nowrap")}>
                {p.row}
              </td>
              <td data-label={idLabel} className={cn(cell, "[overflow-wrap:anywhere]")}>
                {p.businessId || "—"}
              </td>
              <td data-label="Email" className={cn(cell, "[overflow-wrap:anywhere]")}>
                {p.email || "—"}
              </td>
              <td
                data-label="Outcome"
                className={cn(
                  cell,
                  "whitespace-nowrap font-medium",
                  p.status === "skipped" ? "text-slate-600" : "text-red-700",
                )}
              >
                {p.status === "invalid" && job.status === "done"
                  ? "Failed"
                  : (STATUS_LABELS[p.status] ?? p.status)}
              </td>
              <td data-label="Reason" className={cn(cell, "[overflow-wrap:anywhere]")}>
                {p.reason}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {job.problemCount > job.problems.length ? (
        <p className="border-t border-slate-200 px-4 py-3 text-sm text-slate-600">
          The first {job.problems.length.toLocaleString("en")} of {job.problemCount.toLocaleString("en")} are
          shown; the failed-rows file has them all.
        </p>
      ) : null}
    </div>
  );
}

function Counts({ job }: { job: TImportJob }) {
  const items = [
    ["Created", job.created, "text-emerald-700"],
    ["Skipped", job.skipped, "text-slate-700"],
    ["Failed", job.failed, job.failed > 0 ? "text-red-700" : "text-slate-700"],
  ] as const;
  return (
    <dl className="grid grid-cols-3 gap-3">
      {items.map(([label, value, tone]) => (
        <div key={label} className="rounded-lg border border-slate-200 bg-white px-4 py-3">
          <dt className="text-xs font-medium text-slate-500">{label}</dt>
          <dd
            className={cn("text-2xl font-semibold tabular-nums", tone)}
            data-testid={`import-${label.toLowerCase()}`}
          >
            {value.toLocaleString("en")}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Preview({ job }: { job: TImportJob }) {
  const start = useStartImport();
  const ready = unmappedRequired(job.kind, job.mapping).length === 0;
  return (
    <div className="space-y-6">
      <ColumnMapping job={job} />
      <section aria-labelledby="preview-title" className="space-y-4">
        <div className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm md:flex-row md:items-center md:justify-between">
          <div>
            <h2 id="preview-title" className="text-base font-semibold text-navy-950">
              Preview
            </h2>
            <p className="mt-1 text-sm text-slate-700" data-testid="import-summary">
              {previewSummary(job)}
            </p>
          </div>
          <div className="flex flex-wrap gap-3">
            {job.invalid > 0 ? (
              <a href={failedRowsHref(job)} download className={buttonClasses("secondary")}>
                Download rows with problems
              </a>
            ) : null}
            <Button
              disabled={!ready || job.valid === 0}
              isLoading={start.isPending}
              onClick={() => start.mutate(job.id)}
            >
              Import {job.valid.toLocaleString("en")} {job.valid === 1 ? job.kind : kindPlural(job.kind)}
            </Button>
          </div>
        </div>
        {start.isError ? (
          <FormMessage tone="error">
            {getErrorMessage(start.error, "The import could not be started.")}
          </FormMessage>
        ) : null}
        <ProblemTable job={job} caption="Rows with problems" />
      </section>
    </div>
  );
}

function Progress({ job }: { job: TImportJob }) {
  const percent = progressPercent(job);
  return (
    <section
      aria-labelledby="progress-title"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div className="flex items-center gap-3">
        <Spinner className="size-5 text-navy-700" />
        <h2 id="progress-title" className="text-base font-semibold text-navy-950">
          Importing {kindPlural(job.kind)}…
        </h2>
      </div>
      <div
        role="progressbar"
        aria-labelledby="progress-title"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${job.done} of ${job.total} rows`}
        className="h-3 overflow-hidden rounded-full bg-slate-100"
      >
        <div
          className="h-full rounded-full bg-emerald-600 transition-[width] duration-500"
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="text-sm text-slate-700" aria-live="polite">
        {job.done.toLocaleString("en")} of {job.total.toLocaleString("en")} rows ({percent}%)
      </p>
      <Counts job={job} />
      <p className="text-sm text-slate-600">
        The import continues on the server: you can leave this page and come back to it from this address.
      </p>
    </section>
  );
}

function Report({ job }: { job: TImportJob }) {
  return (
    <section aria-labelledby="report-title" className="space-y-4">
      <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="report-title" className="text-base font-semibold text-navy-950">
          Import finished
        </h2>
        <Counts job={job} />
        <div className="flex flex-wrap gap-3">
          {job.failed > 0 ? (
            <a href={failedRowsHref(job)} download className={buttonClasses("primary")}>
              Download failed rows
            </a>
          ) : null}
          <Link to={listPathOf(job.kind)} className={buttonClasses("secondary")}>
            Go to {kindPlural(job.kind)}
          </Link>
          <Link to={`/admin/import?kind=${job.kind}`} className={buttonClasses("secondary")}>
            Import another file
          </Link>
        </div>
        {job.failed > 0 ? (
          <p className="text-sm text-slate-600">
            Fix the failed rows in the downloaded file (their passwords are left empty: enter them again) and
            upload it here.
          </p>
        ) : null}
      </div>
      <ProblemTable job={job} caption="Rows not created" />
    </section>
  );
}

/** /admin/import/:jobId: the import's preview, its progress while it runs, and the final report. */
export function ImportJobPage() {
  const { jobId = "" } = useParams();
  const query = useImport(jobId);
  const job = query.data;
  const queryClient = useQueryClient();
  const finished = job?.status === "done";
  const kind = job?.kind;

  // The lists show the new people as soon as the import has finished.
  useEffect(() => {
    if (!finished || !kind) return;
    void queryClient.invalidateQueries({ queryKey: peopleQueryKey(kind) });
  }, [finished, kind, queryClient]);

  const title = job ? `Import ${kindPlural(job.kind)} from CSV` : "Import from CSV";
  return (
    <section aria-labelledby="page-title">
      <PageHeader title={title} description={job ? `File: ${job.fileName}` : "Loading..."} />
      {query.isPending ? (
        <p className="text-sm text-slate-600">Loading...</p>
      ) : query.isError || !job ? (
        <FormMessage tone="error">{getErrorMessage(query.error, LOAD_IMPORT_FAILED)}</FormMessage>
      ) : job.status === "preview" ? (
        <Preview job={job} />
      ) : job.status === "done" ? (
        <Report job={job} />
      ) : (
        <Progress job={job} />
      )}
    </section>
  );
}
