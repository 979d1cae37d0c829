import { useSearchParams } from "react-router";

import { ListBody } from "@/components/admin/list-body";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

import { LOAD_AUDIT_FAILED, useAudit } from "../api/get-audit";
import { cursorFromParams, filtersFromParams, paramsFor } from "../utils/audit-filters";
import type { TAuditCursor, TAuditFilters } from "../utils/audit-filters";
import { AuditChainStatus } from "./audit-chain-status";
import { AuditExport } from "./audit-export";
import { AuditFiltersForm } from "./audit-filters-form";
import { AuditTable } from "./audit-table";

const count = new Intl.NumberFormat("en-US");

/**
 * /admin/audit: the audit trail, newest first, filtered by person, action, outcome and days, a page at a
 * time (Older/Newer: keyset paging, DEVIATIONS D50); each entry opens to its before/after. Export CSV takes
 * every matching entry. The filters and the page are in the address bar, so a link shows the same view.
 */
export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const cursor = cursorFromParams(params);
  const query = useAudit(filters, cursor);
  const page = query.data;

  const show = (next: TAuditFilters, at?: TAuditCursor) => setParams(paramsFor(next, at));
  const hasFilters = Object.keys(filters).length > 0;

  const body = (
    <ListBody
      query={query}
      errorFallback={LOAD_AUDIT_FAILED}
      empty={page?.rows.length === 0}
      emptyText={hasFilters ? "No audit entries match these filters." : "The audit log is empty."}
    >
      {page && <AuditTable rows={page.rows} dimmed={query.isPlaceholderData} />}
    </ListBody>
  );

  const matching = page
    ? page.capped
      ? `More than ${count.format(page.total)} matching entries`
      : `${count.format(page.total)} matching ${page.total === 1 ? "entry" : "entries"}`
    : "";

  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 id="page-title" className="text-2xl font-semibold tracking-tight text-navy-950">
            Audit log
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            Every change, sign-in and refusal in the portal, newest first. Open an entry to see what it
            changed.
          </p>
        </div>
        <AuditExport filters={filters} />
      </div>
      <AuditChainStatus />
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        <AuditFiltersForm filters={filters} onApply={(next) => show(next)} />
        {query.isFetching && !query.isPending ? (
          <p className="flex items-center gap-2 px-4 pt-3 text-xs text-slate-500">
            <Spinner className="size-3.5" />
            Updating...
          </p>
        ) : null}
        {body}
        {page && !query.isError && page.rows.length > 0 ? (
          <nav
            aria-label="Pagination"
            className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <p aria-live="polite" className="text-sm text-slate-600">
              {matching}
            </p>
            <div className="flex gap-2">
              <Button
                variant="secondary"
                size="sm"
                disabled={query.isPlaceholderData || page.newer === null}
                onClick={() => show(filters, page.newer === null ? undefined : { after: page.newer })}
              >
                Newer
              </Button>
              <Button
                variant="secondary"
                size="sm"
                disabled={query.isPlaceholderData || page.older === null}
                onClick={() => show(filters, page.older === null ? undefined : { before: page.older })}
              >
                Older
              </Button>
            </div>
          </nav>
        ) : null}
      </div>
    </section>
  );
}
