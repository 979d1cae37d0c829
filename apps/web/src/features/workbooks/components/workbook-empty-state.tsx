import { ChartColumnIcon } from "lucide-react";

/** Main area of the user shell while no workbook is assigned. */
export function WorkbookEmptyState() {
  return (
    <section
      aria-labelledby="workbooks-empty-title"
      className="mx-auto flex max-w-xl flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-emerald-50 text-emerald-700">
        <ChartColumnIcon className="size-7" />
      </span>
      <h1 id="workbooks-empty-title" className="mt-5 text-lg font-semibold text-navy-950">
        No workbooks assigned yet.
      </h1>
      <p className="mt-2 text-sm leading-relaxed text-slate-600">
        When your advisory team shares a report with you, it appears here and in the sidebar. Questions in the
        meantime? Your advisor is happy to help.
      </p>
    </section>
  );
}
