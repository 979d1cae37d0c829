import { useEffect } from "react";
import type { ComponentType } from "react";
import { Link } from "react-router";

import { MAX_PAGE_SIZE, workbookLabel } from "@portal/contracts";
import type { TClient, TEmployee, TPersonKind } from "@portal/contracts";

import { buttonClasses } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

import { useWorkbooks } from "../api/get-workbooks";
import { ClientPicker } from "../components/client-picker";
import { ReadOnlyItem } from "../components/form-layout";
import { PrivilegeBadge } from "../components/privilege-badge";
import { WorkbookPicker } from "../components/workbook-picker";
import type { TWorkbookOption } from "../components/workbook-picker";
import { namesOrNone } from "../utils/people";
import type { TAssignedOption, TPersonRow } from "./kinds";

type TPickerProps = {
  selected: ReadonlyArray<TAssignedOption>;
  onChange: (selected: TAssignedOption[]) => void;
  disabled?: boolean;
};

/** The screens' parts only one kind has (`kinds.ts` has the rest of what differs). */
export type TPersonParts<R extends TPersonRow> = {
  /** Add: the picker of what the new person is assigned. */
  AddPicker: ComponentType<TPickerProps>;
  /** Edit: the picker only this kind edits (Edit Employee's clients), beside the privilege select. */
  EditPicker: ComponentType<TPickerProps> | null;
  /** Edit: read-only items only this kind shows, before and after the person's actions. */
  EditDetails: ComponentType<{ row: R }> | null;
  EditExtras: ComponentType<{ row: R }> | null;
};

const clientParts: TPersonParts<TClient> = {
  AddPicker: ({ selected, onChange, disabled }) => (
    <WorkbookPicker
      selected={selected as ReadonlyArray<TWorkbookOption>}
      onChange={onChange}
      disabled={disabled}
    />
  ),
  EditPicker: null,
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
  AddPicker: ClientPicker,
  EditPicker: ClientPicker,
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
