import { useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { MultiSelect } from "@/components/admin/multi-select";
import { getErrorMessage } from "@/lib/errors";
import { useDebouncedValue } from "@/lib/use-debounced-value";

import type { TAssignable, TAssignedOption } from "../utils/person-ui";

const PICKER_PAGE_SIZE = 50;

type TAssignmentPickerProps = {
  /** What the kind is assigned (its `assign` in `kinds.ts`): Add Client's workbooks, an employee's clients. */
  assignable: TAssignable;
  selected: ReadonlyArray<TAssignedOption>;
  onChange: (selected: TAssignedOption[]) => void;
  disabled?: boolean;
};

/**
 * The multi-select of what a person is assigned ('Workbooks (optional)' on Add Client, 'Assign Clients' on
 * Add and Edit Employee). There may be many to choose from, so the list is searched on the server as the
 * admin types and shows the first 50 matches.
 */
export function AssignmentPicker({ assignable, selected, onChange, disabled }: TAssignmentPickerProps) {
  const { label, noun, hint, loadFailed, noneYet } = assignable;
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim());
  const query = useQuery(assignable.query({ q: q || undefined, limit: PICKER_PAGE_SIZE }));
  const options = query.data?.rows ?? [];

  let status: string | undefined;
  if (!open) status = undefined;
  else if (query.isPending) status = "Loading...";
  else if (query.isError) status = getErrorMessage(query.error, loadFailed);
  else if (options.length === 0) status = q ? `No ${noun}s match “${q}”.` : noneYet;
  else if (query.data.total > options.length)
    status = `Showing ${options.length} of ${query.data.total.toLocaleString("en-US")} ${noun}s. Type to narrow the list.`;

  return (
    <MultiSelect
      label={label}
      noun={noun}
      selected={selected}
      onChange={onChange}
      options={options}
      search={search}
      onSearchChange={setSearch}
      status={status}
      statusTone={query.isError ? "error" : "neutral"}
      hint={hint}
      disabled={disabled}
      onOpenChange={setOpen}
    />
  );
}
