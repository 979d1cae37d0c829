import { useState } from "react";

import { getErrorMessage } from "@/lib/errors";

import { usePeople } from "../people/api";
import { clientUi } from "../people/kinds";
import { fullName } from "../utils/people";
import type { TOption } from "../utils/multi-select";
import { useDebouncedValue } from "../utils/use-debounced-value";
import { MultiSelect } from "./multi-select";

const PICKER_PAGE_SIZE = 50;

type TClientPickerProps = {
  selected: ReadonlyArray<TOption>;
  onChange: (selected: TOption[]) => void;
  disabled?: boolean;
};

/**
 * 'Assign Clients': the multi-select over the client list. The firm may have many clients, so the
 * list is searched on the server as the admin types and shows the first 50 matches.
 */
export function ClientPicker({ selected, onChange, disabled }: TClientPickerProps) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim());
  const query = usePeople(clientUi, { q: q || undefined, limit: PICKER_PAGE_SIZE, sort: "last_name" });

  const options: TOption[] = (query.data?.rows ?? []).map((client) => ({
    value: client.c_id,
    label: fullName(client),
    detail: `${client.client_id} · ${client.email}`,
  }));

  let status: string | undefined;
  if (!open) status = undefined;
  else if (query.isPending) status = "Loading...";
  else if (query.isError) status = getErrorMessage(query.error, "Failed to load clients.");
  else if (options.length === 0) status = q ? `No clients match “${q}”.` : "No clients yet.";
  else if (query.data.total > options.length)
    status = `Showing ${options.length} of ${query.data.total.toLocaleString("en-US")} clients. Type to narrow the list.`;

  return (
    <MultiSelect
      label="Assign Clients"
      noun="client"
      selected={selected}
      onChange={onChange}
      options={options}
      search={search}
      onSearchChange={setSearch}
      status={status}
      statusTone={query.isError ? "error" : "neutral"}
      hint="The employee sees the workbooks of the clients assigned here."
      disabled={disabled}
      onOpenChange={setOpen}
    />
  );
}
