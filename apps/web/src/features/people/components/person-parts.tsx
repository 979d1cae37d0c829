import { useEffect } from "react";
import type { ComponentType } from "react";
import { Link } from "react-router";

import { MAX_PAGE_SIZE, workbookLabel } from "@portal/contracts";
import type { TClient, TEmployee, TPersonKind } from "@portal/contracts";

import { ReadOnlyItem } from "@/components/admin/form-layout";
import { buttonClasses } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { useWorkbooks } from "@/lib/get-workbooks";

import type { TPersonRow } from "../utils/person-ui";
import { namesOrNone } from "../utils/people";
import { PrivilegeBadge } from "./privilege-badge";

/**
 * The screens' parts only one kind has (`utils/kinds.ts` has the rest of what differs, the assignment picker's
 * list too).
 */
export type TPersonParts<R extends TPersonRow> = {
  /** Edit: read-only items only this kind shows, before and after the person's actions. */
  EditDetails: ComponentType<{ row: R }> | null;
  EditExtras: ComponentType<{ row: R }> | null;
};

const clientParts: TPersonParts<TClient> = {
  EditDetails: ({ row: client }) => (
    <>
      <ReadOnlyItem label="Privilege">
        <PrivilegeBadge privilege={client.privilege} />
      </ReadOnlyItem>
      <ReadOnlyItem label="Assigned Employees">{namesOrNone(client.employees)}</ReadOnlyItem>
    </>
  ),
  EditExtras: ({ row: client }) => (
    <ReadOnlyItem label="Workbooks" wide>
      <AssignedWorkbooks workbookIds={client.workbook_ids} />
      {client.workbook_ids.length > 0 ? (
        <Link
          to={`/admin/view-as-client?id=${encodeURIComponent(client.client_id)}`}
          state={{ client }}
          className={cn(buttonClasses("secondary", "sm"), "mt-3")}
        >
          View as client
        </Link>
      ) : null}
    </ReadOnlyItem>
  ),
};

const employeeParts: TPersonParts<TEmployee> = {
  EditDetails: null,
  EditExtras: null,
};

/** The kind's parts, for a screen written for any kind. */
export const personParts = <R extends TPersonRow>(kind: TPersonKind) =>
  (kind === "client" ? clientParts : employeeParts) as unknown as TPersonParts<R>;

/** The names of the client's workbooks, from the catalogue (spec: a failure to load it is only logged). */
function AssignedWorkbooks({ workbookIds }: { workbookIds: ReadonlyArray<number> }) {
  const catalogue = useWorkbooks({ limit: MAX_PAGE_SIZE, sort: "id" }, { enabled: workbookIds.length > 0 });
  const { error } = catalogue;
  useEffect(() => {
    if (error) console.error("Loading the workbook names for Edit Client failed", error);
  }, [error]);

  if (workbookIds.length === 0) return <span className="text-slate-500">No workbooks assigned</span>;
  if (catalogue.isPending && !error) return <span className="text-slate-500">Loading...</span>;

  const names = new Map(
    (catalogue.data?.rows ?? []).map((workbook) => [workbook.id, workbook.workbook_name]),
  );
  return (
    <ul className="flex flex-wrap gap-2">
      {workbookIds.map((id) => {
        const name = names.get(id);
        return (
          <li
            key={id}
            title={name}
            className="flex max-w-full min-w-0 flex-col rounded-lg bg-slate-50 px-3 py-1.5 ring-1 ring-slate-200 ring-inset"
          >
            <span className="truncate font-medium text-navy-950">
              {name ? workbookLabel(name) : `Workbook ${id}`}
            </span>
            {name ? <span className="truncate text-xs text-slate-500">{name}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
