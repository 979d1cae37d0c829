import type { ReactNode } from "react";

type TPageHeaderProps = {
  title: string;
  description: string;
  /** A button or link at the right (e.g. '+Add Client'). */
  action?: ReactNode;
};

/** The heading of a back-office screen; the h1 names the page for screen readers. */
export function PageHeader({ title, description, action }: TPageHeaderProps) {
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 id="page-title" className="text-2xl font-semibold tracking-tight text-navy-950">
          {title}
        </h1>
        <p className="mt-1 text-sm text-slate-600">{description}</p>
      </div>
      {action ? <div className="shrink-0">{action}</div> : null}
    </div>
  );
}
