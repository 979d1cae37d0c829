import { ChartColumnIcon } from "lucide-react";
import { Link, useMatch } from "react-router";

import { workbookLabel } from "@portal/contracts";

import { cn } from "@/components/ui/cn";

import { workbookInitials } from "../utils/select-workbook";
import { useCurrentWorkbook } from "../utils/use-current-workbook";
import { workbookPath } from "../utils/viewed-client";

export const NO_WORKBOOKS = "No workbooks assigned yet.";
export const CLIENT_ACCESS_ENDED = "You no longer have access to this client's workbooks.";

const itemClasses = "flex h-10 items-center gap-3 rounded-lg px-2.5 text-sm font-medium transition-colors";

/** Which workbook the page shows, if it is a workbook page: `/` shows the first, an unknown id too. */
function useShownWorkbookName(): string | null {
  const index = useMatch({ path: "/", end: true });
  const workbookPage = useMatch("/workbooks/:workbookId");
  const onWorkbookPage = index !== null || workbookPage !== null;
  const { workbook } = useCurrentWorkbook(workbookPage?.params.workbookId);
  return onWorkbookPage ? (workbook?.workbook_name ?? null) : null;
}

type TWorkbookLinkProps = { name: string; clientId: number | null; current: boolean; collapsed: boolean };

/** A workbook of the client being viewed: the link keeps `?client=`. */
function WorkbookLink({ name, clientId, current, collapsed }: TWorkbookLinkProps) {
  const label = workbookLabel(name);
  return (
    <Link
      to={workbookPath(name, clientId)}
      aria-current={current ? "page" : undefined}
      title={collapsed ? label : undefined}
      className={cn(
        itemClasses,
        collapsed && "justify-center px-0",
        current ? "bg-white/10 text-white" : "text-navy-200 hover:bg-white/5 hover:text-white",
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          "flex size-7 shrink-0 items-center justify-center rounded-md text-[0.6875rem] font-bold tracking-wide",
          current ? "bg-emerald-500 text-navy-950" : "bg-white/10 text-navy-100",
        )}
      >
        {workbookInitials(label)}
      </span>
      <span className={collapsed ? "sr-only" : "truncate"}>{label}</span>
    </Link>
  );
}

/**
 * The sidebar's workbook section: one link per workbook the person may see (of the client chosen in the
 * URL), labelled with the name up to its last hyphen ("Tax-Center-hPiZ…" → "Tax Center"); collapsed, each
 * shows its initials. The workbook on screen is highlighted, also on `/` and when an unknown id fell back to
 * the first.
 */
export function WorkbookNav({ collapsed }: { collapsed: boolean }) {
  const { query, state, workbooks, clientId } = useCurrentWorkbook(undefined);
  const shown = useShownWorkbookName();

  let content;
  if (state === "lost") {
    content = collapsed ? (
      <span className="flex h-10 items-center justify-center text-navy-400" title={CLIENT_ACCESS_ENDED}>
        <ChartColumnIcon className="size-5" />
      </span>
    ) : (
      <p className="px-2.5 text-sm text-navy-300">{CLIENT_ACCESS_ENDED}</p>
    );
  } else if (state === "pending") {
    content = (
      <div role="status" aria-label="Loading workbooks" className="space-y-1">
        {[0, 1, 2].map((row) => (
          <div key={row} className={cn(itemClasses, collapsed && "justify-center px-0")}>
            <span className="size-7 shrink-0 animate-pulse rounded-md bg-white/10" />
            {collapsed ? null : <span className="h-3 flex-1 animate-pulse rounded bg-white/10" />}
          </div>
        ))}
      </div>
    );
  } else if (state === "error") {
    content = collapsed ? (
      <span
        className="flex h-10 items-center justify-center text-red-300"
        title="Workbooks could not be loaded."
      >
        <ChartColumnIcon className="size-5" />
      </span>
    ) : (
      <div className="px-2.5 text-sm text-navy-200">
        <p role="alert">Workbooks could not be loaded.</p>
        <button
          type="button"
          onClick={() => void query.refetch()}
          className="mt-2 rounded font-semibold text-emerald-300 underline-offset-2 hover:underline"
        >
          Try again
        </button>
      </div>
    );
  } else if (workbooks.length === 0) {
    content = collapsed ? (
      <span className="flex h-10 items-center justify-center text-navy-400" title={NO_WORKBOOKS}>
        <ChartColumnIcon className="size-5" />
      </span>
    ) : (
      <p className="px-2.5 text-sm text-navy-300">{NO_WORKBOOKS}</p>
    );
  } else {
    content = (
      <ul className="space-y-1">
        {workbooks.map((workbook) => (
          <li key={workbook.id}>
            <WorkbookLink
              name={workbook.workbook_name}
              clientId={clientId}
              current={workbook.workbook_name === shown}
              collapsed={collapsed}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <nav aria-label="Workbooks">
      <h2
        className={
          collapsed ? "sr-only" : "px-2.5 pb-2 text-xs font-semibold tracking-wider text-navy-300 uppercase"
        }
      >
        Workbooks
      </h2>
      {content}
    </nav>
  );
}
