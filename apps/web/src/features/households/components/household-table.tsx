import { EyeIcon, EyeOffIcon, PencilIcon, TrashIcon } from "lucide-react";

import type { THousehold } from "@portal/contracts";

import { cn } from "@/components/ui/cn";

import { memberCount, membersText } from "../utils/household-form";

/** The combined view in words, with an icon: never told by colour alone. */
function CombinedView({ on }: { on: boolean }) {
  const Icon = on ? EyeIcon : EyeOffIcon;
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ring-1",
        on ? "bg-emerald-50 text-emerald-800 ring-emerald-200" : "bg-slate-100 text-slate-700 ring-slate-300",
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {on ? "On" : "Off"}
    </span>
  );
}

const cellClasses =
  "px-4 py-3 align-top text-slate-700 max-md:flex max-md:gap-3 max-md:px-0 max-md:py-1 max-md:before:w-32 max-md:before:shrink-0 max-md:before:text-slate-500 max-md:before:content-[attr(data-label)]";

type THouseholdTableProps = {
  households: ReadonlyArray<THousehold>;
  onEdit: (household: THousehold) => void;
  onDelete: (household: THousehold) => void;
  /** While a form is open, the rows' actions wait. */
  busy: boolean;
};

/** The households: a table from md up; on phones each row becomes a card of label/value lines (same markup). */
export function HouseholdTable({ households, onEdit, onDelete, busy }: THouseholdTableProps) {
  return (
    <div className="md:overflow-x-auto">
      <table className="w-full text-left text-sm max-md:block md:min-w-[40rem]">
        <caption className="sr-only">Households</caption>
        <thead className="border-b border-slate-200 bg-slate-50/80 text-xs font-semibold text-slate-600 max-md:sr-only">
          <tr>
            <th scope="col" className="px-4 py-3 whitespace-nowrap">
              Household
            </th>
            <th scope="col" className="px-4 py-3 whitespace-nowrap">
              Members
            </th>
            <th scope="col" className="px-4 py-3 whitespace-nowrap">
              Combined view
            </th>
            <th scope="col" className="px-4 py-3 text-right whitespace-nowrap">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 max-md:block">
          {households.map((household) => (
            <tr key={household.id} className="max-md:block max-md:px-4 max-md:py-3">
              <td data-label="Household" className={cn(cellClasses, "font-semibold text-navy-950")}>
                {household.name}
              </td>
              <td data-label="Members" className={cellClasses}>
                <span className="min-w-0">
                  <span className="block">{memberCount(household)}</span>
                  <span className="block text-slate-500">{membersText(household)}</span>
                </span>
              </td>
              <td data-label="Combined view" className={cellClasses}>
                <CombinedView on={household.combinedView} />
              </td>
              <td className="px-4 py-2 text-right whitespace-nowrap max-md:block max-md:px-0 max-md:pt-2 max-md:pb-0 max-md:text-left">
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => onEdit(household)}
                  className="inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-navy-800 transition-colors hover:bg-navy-50 disabled:cursor-not-allowed disabled:text-slate-400 max-md:-ml-2.5"
                >
                  <PencilIcon aria-hidden="true" className="size-4" />
                  Edit<span className="sr-only"> household {household.name}</span>
                </button>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => onDelete(household)}
                  className="inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-red-700 transition-colors hover:bg-red-50 disabled:cursor-not-allowed disabled:text-slate-400"
                >
                  <TrashIcon aria-hidden="true" className="size-4" />
                  Delete<span className="sr-only"> household {household.name}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
