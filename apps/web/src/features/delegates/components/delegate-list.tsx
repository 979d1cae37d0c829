import { CalendarXIcon, CircleCheckIcon, MailIcon, PencilIcon, UserXIcon } from "lucide-react";
import type { ReactNode } from "react";

import type { TDelegate, TDelegateStatus } from "@portal/contracts";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

import { STATUS_TEXT, endDateText, lastViewedText, sharedText } from "../utils/delegate-text";
import type { TWorkbookNames } from "../utils/delegate-text";

const STATUS_LOOK: Record<TDelegateStatus, { icon: typeof MailIcon; classes: string }> = {
  invited: { icon: MailIcon, classes: "bg-amber-50 text-amber-900 ring-amber-200" },
  active: { icon: CircleCheckIcon, classes: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  expired: { icon: CalendarXIcon, classes: "bg-slate-100 text-slate-700 ring-slate-300" },
};

/** The status in words with its icon: never told by colour alone. */
export function StatusBadge({ status }: { status: TDelegateStatus }) {
  const { icon: Icon, classes } = STATUS_LOOK[status];
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ring-1",
        classes,
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      <span className="sr-only">Status: </span>
      {STATUS_TEXT[status]}
    </span>
  );
}

/** The id of a delegate's Change button, where the focus returns once its form closes. */
export const changeButtonId = (delegate: TDelegate) => `delegate-${delegate.id}-change`;

type TDelegateListProps = {
  delegates: ReadonlyArray<TDelegate>;
  names: TWorkbookNames;
  /** The list's name for screen readers. */
  label: string;
  /** "Change" (the client's own list only); null: not offered. */
  onChange: ((delegate: TDelegate) => void) | null;
  onRevoke: (delegate: TDelegate) => void;
  /** The delegate whose "Change" form is open, shown in place under them. */
  editing?: { id: number; form: ReactNode } | null;
  /** While a form is open, the other actions wait. */
  busy?: boolean;
};

/** The people with access: who, their status, what they see, until when, when they last looked; and actions. */
export function DelegateList({
  delegates,
  names,
  label,
  onChange,
  onRevoke,
  editing = null,
  busy = false,
}: TDelegateListProps) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-100 border-y border-slate-100">
      {delegates.map((delegate) => (
        <li key={delegate.id} className="py-4">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-navy-950">
                <span className="break-words">{delegate.name}</span>
                <StatusBadge status={delegate.status} />
              </p>
              <p className="mt-0.5 text-sm break-all text-slate-600">{delegate.email}</p>
              <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm text-slate-600 sm:grid-cols-[auto_1fr]">
                <dt className="font-medium text-slate-500">Can see</dt>
                <dd className="break-words text-slate-700">{sharedText(delegate, names)}</dd>
                <dt className="font-medium text-slate-500">Access ends</dt>
                <dd className="text-slate-700">
                  {delegate.expires_at === null ? (
                    endDateText(null)
                  ) : (
                    <time dateTime={delegate.expires_at}>{endDateText(delegate.expires_at)}</time>
                  )}
                </dd>
                <dt className="font-medium text-slate-500">Last viewed</dt>
                <dd className="text-slate-700">
                  {delegate.last_viewed_at === null ? (
                    lastViewedText(null)
                  ) : (
                    <time dateTime={delegate.last_viewed_at}>{lastViewedText(delegate.last_viewed_at)}</time>
                  )}
                </dd>
              </dl>
            </div>
            {editing?.id === delegate.id ? null : (
              <div className="flex shrink-0 flex-wrap gap-2">
                {onChange ? (
                  <Button
                    id={changeButtonId(delegate)}
                    variant="secondary"
                    size="sm"
                    disabled={busy}
                    onClick={() => onChange(delegate)}
                  >
                    <PencilIcon aria-hidden="true" className="size-4" />
                    Change<span className="sr-only"> access for {delegate.name}</span>
                  </Button>
                ) : null}
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => onRevoke(delegate)}
                  className="inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-red-700 transition-colors hover:bg-red-50 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent"
                >
                  <UserXIcon aria-hidden="true" className="size-4" />
                  Revoke<span className="sr-only"> access for {delegate.name}</span>
                </button>
              </div>
            )}
          </div>
          {editing?.id === delegate.id ? <div className="mt-4">{editing.form}</div> : null}
        </li>
      ))}
    </ul>
  );
}
