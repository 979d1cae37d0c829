import { HouseIcon } from "lucide-react";
import { Link } from "react-router";

import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";

import { LOAD_CLIENT_HOUSEHOLD_FAILED, useClientHousehold } from "../api/get-client-household";
import { memberCount, membersText } from "../utils/household-form";

export const HOUSEHOLDS_PATH = "/admin/households";
export const NOT_IN_A_HOUSEHOLD = "Not in a household";

/** Edit Client: the household the client is in (or that there is none), with the way to the households page. */
export function ClientHousehold({ cId }: { cId: number }) {
  const household = useClientHousehold(cId);

  let line;
  if (household.isPending) {
    line = (
      <span role="status" className="flex items-center gap-2 text-slate-600">
        <Spinner className="size-4" /> Loading...
      </span>
    );
  } else if (household.isError) {
    line = (
      <span className="text-red-700">{getErrorMessage(household.error, LOAD_CLIENT_HOUSEHOLD_FAILED)}</span>
    );
  } else if (household.data === null) {
    line = <span className="text-slate-700">{NOT_IN_A_HOUSEHOLD}</span>;
  } else {
    const { data } = household;
    line = (
      <span className="min-w-0 text-slate-700">
        <span className="font-medium text-navy-950">{data.name}</span> · {memberCount(data)} (
        {membersText(data)}) · combined view {data.combinedView ? "on" : "off"}
      </span>
    );
  }

  return (
    <section
      aria-labelledby="client-household-title"
      className="rounded-2xl border border-slate-200 bg-white px-5 py-5 shadow-sm sm:px-8"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 items-start gap-3">
          <HouseIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-navy-800" />
          <div className="min-w-0 text-sm">
            <h2 id="client-household-title" className="font-semibold text-navy-950">
              Household
            </h2>
            <p className="mt-0.5 break-words">{line}</p>
          </div>
        </div>
        <Link
          to={HOUSEHOLDS_PATH}
          className="shrink-0 rounded text-sm font-medium text-navy-800 underline underline-offset-4 hover:text-navy-950"
        >
          Manage households
        </Link>
      </div>
    </section>
  );
}
