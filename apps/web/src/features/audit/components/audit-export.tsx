import { Button } from "@/components/ui/button";

import { useAuditExport } from "../api/export-audit";
import type { TAuditFilters } from "../utils/audit-filters";

const count = new Intl.NumberFormat("en-US");
const size = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${count.format(Math.ceil(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Export CSV: every entry the filters match (not just this page), with its progress while it streams. */
export function AuditExport({ filters }: { filters: TAuditFilters }) {
  const { state, start, cancel } = useAuditExport();
  const running = state.status === "running";
  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <div className="flex gap-2">
        {running ? (
          <Button variant="ghost" size="md" onClick={cancel}>
            Cancel export
          </Button>
        ) : null}
        <Button variant="secondary" size="md" isLoading={running} onClick={() => start(filters)}>
          Export CSV
        </Button>
      </div>
      <div aria-live="polite" className="text-xs text-slate-600 sm:text-right">
        {running ? (
          <div className="flex flex-col gap-1 sm:items-end">
            <span>
              {state.progress.total === null
                ? `Exporting: ${count.format(state.progress.rows)} rows`
                : `Exporting ${count.format(state.progress.rows)} of ${count.format(state.progress.total)} rows`}{" "}
              ({size(state.progress.bytes)})
            </span>
            <progress
              aria-label="Export progress"
              className="h-1.5 w-48 overflow-hidden rounded-full accent-emerald-600"
              max={state.progress.total ?? undefined}
              value={state.progress.total === null ? undefined : state.progress.rows}
            />
          </div>
        ) : null}
        {state.status === "done" ? `Exported ${count.format(state.rows)} rows.` : null}
        {state.status === "cancelled" ? "Export cancelled." : null}
        {state.status === "error" ? (
          <span role="alert" className="text-red-700">
            {state.message}
          </span>
        ) : null}
      </div>
    </div>
  );
}
