import { cn } from "@/components/ui/cn";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";

import { LOAD_AUDIT_VERIFICATION_FAILED, useAuditVerification } from "../api/get-audit-verification";

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const count = new Intl.NumberFormat("en-US");

/**
 * Whether the audit trail's hash chain holds (`npm run audit:verify`, decision 007): every entry unchanged,
 * none removed or slipped in. The check walks the whole trail, so the server reuses its result for a few
 * minutes and says when it was made.
 */
export function AuditChainStatus() {
  const verification = useAuditVerification();
  if (verification.isPending) {
    return (
      <p
        role="status"
        className="flex items-center gap-2 rounded-2xl border border-slate-200 bg-white p-4 text-sm text-slate-600 shadow-sm"
      >
        <Spinner className="size-4" /> Checking that the audit trail is intact...
      </p>
    );
  }
  if (verification.isError) {
    return (
      <p role="alert" className="rounded-2xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
        {getErrorMessage(verification.error, LOAD_AUDIT_VERIFICATION_FAILED)}
      </p>
    );
  }
  const v = verification.data;
  const checked = `checked ${WHEN.format(new Date(v.checked_at))}${v.refreshing ? ", checking again now" : ""}`;
  const unchained =
    v.unchained_rows > 0
      ? ` ${count.format(v.unchained_rows)} older entries were written before the chain existed and are not covered.`
      : "";
  return (
    <div
      role="status"
      className={cn(
        "flex items-start gap-3 rounded-2xl border p-4 text-sm shadow-sm",
        v.ok ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-red-200 bg-red-50 text-red-800",
      )}
    >
      <span
        aria-hidden="true"
        className={cn("mt-1 size-2.5 shrink-0 rounded-full", v.ok ? "bg-emerald-600" : "bg-red-600")}
      />
      <div className="min-w-0 space-y-0.5">
        <p className="font-semibold">
          {v.ok ? "The audit trail is intact" : "The audit trail has been altered"}
        </p>
        {v.ok ? (
          <p>
            All {count.format(v.rows_checked)} chained entries match their hashes, in order, with none missing
            ({checked}).{unchained}
          </p>
        ) : (
          <p className="[overflow-wrap:anywhere]">
            {v.first_bad?.id != null ? `Entry ${v.first_bad.id}` : "The end of the trail"}
            {v.first_bad?.seq != null ? ` (chain position ${v.first_bad.seq})` : ""}: {v.first_bad?.reason}{" "}
            {count.format(v.rows_checked)} entries before it verified ({checked}). Run{" "}
            <code className="font-mono">npm run audit:verify</code> on the server for the full report.
          </p>
        )}
      </div>
    </div>
  );
}
