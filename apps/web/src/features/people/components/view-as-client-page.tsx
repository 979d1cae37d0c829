import { useEffect, useState } from "react";
import { Link } from "react-router";

import { MAX_PAGE_SIZE, workbookLabel } from "@portal/contracts";
import type { TClient } from "@portal/contracts";

import { buttonClasses } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";
import { useWorkbooks } from "@/lib/get-workbooks";

import { VIEW_AS_FAILED, useViewAsClient } from "../api/view-as-client";
import { clientUi } from "../utils/kinds";
import { PersonTargetPage } from "./person-target-page";

/**
 * /admin/view-as-client?id=<Client ID>: exactly what the client sees in each of their workbooks (an embed
 * minted with their identity), read-only, under a banner that says so. Opened from Edit Client.
 */
export function ViewAsClientPage() {
  return (
    <PersonTargetPage kind={clientUi} title="View as client">
      {(client) => <ClientView client={client} />}
    </PersonTargetPage>
  );
}

function ClientView({ client }: { client: TClient }) {
  const catalogue = useWorkbooks(
    { limit: MAX_PAGE_SIZE, sort: "id" },
    { enabled: client.workbook_ids.length > 0 },
  );
  const workbooks = (catalogue.data?.rows ?? []).filter((w) => client.workbook_ids.includes(w.id));
  const [selected, setSelected] = useState<string | null>(null);
  const current = selected ?? workbooks[0]?.workbook_name ?? null;
  const mint = useViewAsClient();
  const { mutate } = mint;

  // Every workbook shown gets a fresh one-time URL.
  useEffect(() => {
    if (current) mutate({ cId: client.c_id, workbookName: current });
  }, [current, client.c_id, mutate]);

  const name = `${client.first_name} ${client.last_name}`;
  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <div
        role="note"
        className="flex flex-col gap-3 rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between"
      >
        <div>
          <h1 id="page-title" className="font-semibold">
            Viewing as {name} ({client.client_id})
          </h1>
          <p>Read-only: exactly the workbooks and figures this client sees. This view is recorded.</p>
        </div>
        <Link
          to={`/admin/edit-client?id=${encodeURIComponent(client.client_id)}`}
          state={{ client }}
          className={buttonClasses("secondary", "sm")}
        >
          Back to the client
        </Link>
      </div>
      {client.workbook_ids.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center text-sm text-slate-600">
          This client has no workbooks assigned.
        </p>
      ) : (
        <>
          <div role="group" aria-label="Workbooks" className="flex flex-wrap gap-2">
            {workbooks.map((w) => (
              <button
                key={w.id}
                type="button"
                aria-pressed={w.workbook_name === current}
                onClick={() => setSelected(w.workbook_name)}
                className={cn(
                  "rounded-lg px-3 py-1.5 text-sm font-medium",
                  w.workbook_name === current
                    ? "bg-navy-900 text-white"
                    : "bg-white text-slate-700 ring-1 ring-slate-200 hover:bg-slate-50",
                )}
              >
                {workbookLabel(w.workbook_name)}
              </button>
            ))}
          </div>
          {mint.isError ? (
            <FormMessage tone="error">{getErrorMessage(mint.error, VIEW_AS_FAILED)}</FormMessage>
          ) : mint.data && current ? (
            <iframe
              key={mint.data.embedUrl}
              src={mint.data.embedUrl}
              title={`${workbookLabel(current)} as ${name}`}
              className="block h-[calc(100dvh-90px-9rem)] min-h-[28rem] w-full rounded-2xl border border-slate-200 bg-white shadow-sm"
            />
          ) : (
            <p role="status" className="flex items-center gap-3 px-6 py-14 text-sm text-slate-600">
              <Spinner className="size-5 text-emerald-600" /> Loading...
            </p>
          )}
        </>
      )}
    </section>
  );
}
