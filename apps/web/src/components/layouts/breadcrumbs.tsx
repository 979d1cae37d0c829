import { Link, useMatches } from "react-router";
import type { Params } from "react-router";

import { ChevronRightIcon } from "../ui/icons";
import { PageTitle } from "../ui/page-title";

/** Put on a route's `handle` to give it a breadcrumb entry. */
export type TCrumbHandle = { crumb: string | ((params: Params) => string) };

function isCrumbHandle(handle: unknown): handle is TCrumbHandle {
  return typeof handle === "object" && handle !== null && "crumb" in handle;
}

/** The trail of the matched routes that declare a crumb; the last entry is the current page (and the title). */
export function Breadcrumbs() {
  const crumbs = useMatches().flatMap((match) => {
    if (!isCrumbHandle(match.handle)) return [];
    const { crumb } = match.handle;
    return [
      { id: match.id, to: match.pathname, label: typeof crumb === "function" ? crumb(match.params) : crumb },
    ];
  });

  const current = crumbs.at(-1);
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      {current ? <PageTitle title={current.label} /> : null}
      <ol className="flex min-w-0 items-center gap-1.5 text-sm">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={crumb.id} className="flex min-w-0 items-center gap-1.5">
              {index > 0 ? <ChevronRightIcon className="size-4 shrink-0 text-slate-400" /> : null}
              {last ? (
                <span aria-current="page" className="truncate font-semibold text-navy-950">
                  {crumb.label}
                </span>
              ) : (
                <Link to={crumb.to} className="truncate rounded text-slate-500 hover:text-navy-900">
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
