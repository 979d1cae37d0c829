import { ChevronRightIcon } from "lucide-react";
import type { ComponentType, ReactNode } from "react";
import { Link, useLocation, useMatches } from "react-router";
import type { Params } from "react-router";

import { PageTitle } from "../ui/page-title";

/** A crumb whose text needs data (a workbook's label): it passes the text to `children` once known. */
export type TCrumbLabelComponent = ComponentType<{ params: Params; children: (label: string) => ReactNode }>;

/**
 * Put on a route's `handle` to give it a breadcrumb entry. `keep`: query parameters its link carries over from
 * the current address (whose workbooks the user shell shows, `?client=`).
 */
export type TCrumbHandle = {
  crumb: string | ((params: Params) => string) | { Label: TCrumbLabelComponent };
  keep?: readonly string[];
};

/** `pathname` with those of `search`'s parameters named in `keep`. */
export function crumbTarget(pathname: string, search: string, keep: readonly string[] | undefined): string {
  const current = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of keep ?? []) for (const value of current.getAll(name)) kept.append(name, value);
  const query = kept.toString();
  return query ? `${pathname}?${query}` : pathname;
}

function isCrumbHandle(handle: unknown): handle is TCrumbHandle {
  return typeof handle === "object" && handle !== null && "crumb" in handle;
}

type TCrumbItemProps = { to: string; label: string; first: boolean; last: boolean };

function CrumbItem({ to, label, first, last }: TCrumbItemProps) {
  return (
    // On phones only the current page is shown: the trail does not fit beside the account menu.
    <li
      className={
        last ? "flex min-w-0 items-center gap-1.5" : "flex min-w-0 items-center gap-1.5 max-sm:hidden"
      }
    >
      {first ? null : <ChevronRightIcon className="size-4 shrink-0 text-slate-400 max-sm:hidden" />}
      {last ? (
        <>
          <PageTitle title={label} />
          <span aria-current="page" className="truncate font-semibold text-navy-950">
            {label}
          </span>
        </>
      ) : (
        <Link to={to} className="truncate rounded text-slate-500 hover:text-navy-900">
          {label}
        </Link>
      )}
    </li>
  );
}

/**
 * The trail of the matched routes that declare a crumb; the last entry is the current page (and the title).
 * `screen` names a screen shown in place of every page (setting up two-step verification): it is then the
 * only entry, since the route's trail would lead to pages that cannot be opened yet.
 */
export function Breadcrumbs({ screen }: { screen?: string | undefined }) {
  const matches = useMatches();
  const { search } = useLocation();
  const crumbs = screen
    ? [{ id: "screen", to: ".", params: {}, crumb: screen }]
    : matches.flatMap((match) =>
        isCrumbHandle(match.handle)
          ? [
              {
                id: match.id,
                to: crumbTarget(match.pathname, search, match.handle.keep),
                params: match.params,
                crumb: match.handle.crumb,
              },
            ]
          : [],
      );

  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1.5 text-sm">
        {crumbs.map(({ id, to, params, crumb }, index) => {
          const item = (label: string) => (
            <CrumbItem
              key={id}
              to={to}
              label={label}
              first={index === 0}
              last={index === crumbs.length - 1}
            />
          );
          if (typeof crumb === "object") {
            return (
              <crumb.Label key={id} params={params}>
                {item}
              </crumb.Label>
            );
          }
          return item(typeof crumb === "function" ? crumb(params) : crumb);
        })}
      </ol>
    </nav>
  );
}
