import type { ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

/** Full area below the header, over the frame while it loads or in its place when it cannot be shown. */
const AREA = "absolute inset-0 flex items-center justify-center px-4 py-8";

/**
 * Shown while the embed URL is minted and until the frame reports `workbook:loaded`: the outline of a
 * dashboard, so the page does not sit blank, and 'Loading...' (spec section 2).
 */
export function EmbedSkeleton() {
  return (
    <div className="absolute inset-0 overflow-hidden bg-slate-50" data-testid="workbook-skeleton">
      <div aria-hidden="true" className="space-y-4 p-4 sm:p-8">
        <div className="h-7 w-56 max-w-[70%] animate-pulse rounded-md bg-slate-200" />
        <div className="flex flex-wrap gap-3">
          <div className="h-10 w-40 animate-pulse rounded-lg bg-slate-200/80" />
          <div className="h-10 w-52 animate-pulse rounded-lg bg-slate-200/80" />
        </div>
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          {[0, 1, 2, 3].map((card) => (
            <div
              key={card}
              className="h-28 animate-pulse rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
            />
          ))}
        </div>
        <div className="grid gap-4 lg:grid-cols-3">
          <div className="h-72 animate-pulse rounded-xl bg-white shadow-sm ring-1 ring-slate-200 lg:col-span-2" />
          <div className="h-72 animate-pulse rounded-xl bg-white shadow-sm ring-1 ring-slate-200" />
        </div>
      </div>
      <div className={AREA}>
        <div
          role="status"
          aria-live="polite"
          className="flex items-center gap-3 rounded-full bg-white/95 px-5 py-3 text-sm font-medium text-navy-800 shadow-md ring-1 ring-slate-200"
        >
          <Spinner className="size-5 text-emerald-600" />
          Loading...
        </div>
      </div>
    </div>
  );
}

type TEmbedProblemProps = {
  title: string;
  children?: ReactNode;
  onRetry?: () => void;
  icon?: ReactNode;
};

/** A failure in the workbook area, with 'Try again' when trying again can help. */
export function EmbedProblem({ title, children, onRetry, icon }: TEmbedProblemProps) {
  return (
    <div className={`${AREA} bg-slate-50`}>
      <div
        role="alert"
        className="flex w-full max-w-lg flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center shadow-sm"
      >
        {icon ? (
          <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-amber-50 text-amber-700">
            {icon}
          </span>
        ) : null}
        <h2 className="text-lg font-semibold text-navy-950">{title}</h2>
        {children ? (
          <div className="mt-2 text-sm leading-relaxed break-words text-slate-600">{children}</div>
        ) : null}
        {onRetry ? (
          <Button className="mt-6" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </div>
    </div>
  );
}
