import { useMemo, useState } from "react";

import { MultiSelect } from "@/components/admin/multi-select";
import { getErrorMessage } from "@/lib/errors";
import { useDebouncedValue } from "@/lib/use-debounced-value";

import { LOAD_CLIENTS_FAILED, useClientSearch } from "../api/search-clients";
import { clientOption } from "../utils/household-form";
import type { TMemberOption } from "../utils/household-form";

const PICKER_PAGE_SIZE = 50;

type TMembersPickerProps = {
  selected: ReadonlyArray<TMemberOption>;
  onChange: (selected: TMemberOption[]) => void;
  error?: string | undefined;
  disabled?: boolean;
};

/**
 * The household's members, chosen from the clients (the back office's multi-select, as Add Employee's "Assign
 * Clients"): searched on the server as the admin types, the first 50 matches shown.
 */
export function MembersPicker({ selected, onChange, error, disabled }: TMembersPickerProps) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim());
  const query = useClientSearch({ q: q || undefined, limit: PICKER_PAGE_SIZE }, open);
  const rows = query.data?.rows;
  const options = useMemo(() => (rows ?? []).map(clientOption), [rows]);

  let status: string | undefined;
  if (!open) status = undefined;
  else if (query.isPending) status = "Loading...";
  else if (query.isError) status = getErrorMessage(query.error, LOAD_CLIENTS_FAILED);
  else if (options.length === 0) status = q ? `No clients match “${q}”.` : "No clients found.";
  else if (query.data.total > options.length)
    status = `Showing ${options.length} of ${query.data.total.toLocaleString("en-US")} clients. Type to narrow the list.`;

  return (
    <div className="space-y-1.5">
      <MultiSelect
        label="Members"
        noun="client"
        selected={selected}
        onChange={onChange}
        options={options}
        search={search}
        onSearchChange={setSearch}
        status={status}
        statusTone={query.isError ? "error" : "neutral"}
        hint="A client can be in one household only."
        disabled={disabled}
        onOpenChange={setOpen}
      />
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
    </div>
  );
}
