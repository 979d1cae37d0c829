import { useState } from "react";

import type { TWorkbook } from "@portal/contracts";
import { workbookLabel } from "@portal/contracts";

import { getErrorMessage } from "@/lib/errors";

import { LOAD_WORKBOOKS_FAILED, useWorkbooks } from "../api/get-workbooks";
import type { TOption } from "../utils/multi-select";
import { useDebouncedValue } from "../utils/use-debounced-value";
import { MultiSelect } from "./multi-select";

const PICKER_PAGE_SIZE = 50;

/** A chosen workbook: the option plus its team, which the Add Client payload lists as `teams`. */
export type TWorkbookOption = TOption & { team: string };

export const toWorkbookOption = (workbook: TWorkbook): TWorkbookOption => ({
  value: workbook.id,
  label: workbookLabel(workbook.workbook_name),
  detail: `${workbook.team_name} · ${workbook.workbook_name}`,
  team: workbook.team_name,
});

type TWorkbookPickerProps = {
  selected: ReadonlyArray<TWorkbookOption>;
  onChange: (selected: TWorkbookOption[]) => void;
  disabled?: boolean;
};

/** The optional workbook multi-select of Add Client, searched on the server like the client picker. */
export function WorkbookPicker({ selected, onChange, disabled }: TWorkbookPickerProps) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim());
  const query = useWorkbooks({ q: q || undefined, limit: PICKER_PAGE_SIZE, sort: "workbook_name" });
  const options = (query.data?.rows ?? []).map(toWorkbookOption);

  let status: string | undefined;
  if (!open) status = undefined;
  else if (query.isPending) status = "Loading...";
  else if (query.isError) status = getErrorMessage(query.error, LOAD_WORKBOOKS_FAILED);
  else if (options.length === 0) status = q ? `No workbooks match “${q}”.` : "No workbooks found.";
  else if (query.data.total > options.length)
    status = `Showing ${options.length} of ${query.data.total.toLocaleString("en-US")} workbooks. Type to narrow the list.`;

  return (
    <MultiSelect
      label="Workbooks (optional)"
      noun="workbook"
      selected={selected}
      onChange={onChange}
      options={options}
      search={search}
      onSearchChange={setSearch}
      status={status}
      statusTone={query.isError ? "error" : "neutral"}
      hint="The client sees these workbooks after signing in. You can leave this empty."
      disabled={disabled}
      onOpenChange={setOpen}
    />
  );
}
