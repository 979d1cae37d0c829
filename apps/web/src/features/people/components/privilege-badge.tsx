import type { TPrivilege } from "@portal/contracts";

/** A person's privilege as a badge, or 'No privilege assigned' (spec: Edit Client). */
export function PrivilegeBadge({ privilege }: { privilege: TPrivilege | null | undefined }) {
  if (!privilege) return <span className="text-sm text-slate-500">No privilege assigned</span>;
  return (
    <span className="inline-flex items-center rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-200 ring-inset">
      {privilege}
    </span>
  );
}
