import { useState } from "react";
import { Link } from "react-router";

import type { TClient } from "@portal/contracts";

import { buttonClasses } from "@/components/ui/button";
import { getErrorMessage } from "@/lib/errors";

import { useClients } from "../api/get-clients";
import { useDeleteClient } from "../api/delete-client";
import { useResyncClient } from "../api/resync-client";
import { fullName, namesOrNone } from "../utils/people";
import { retryStateOf } from "../utils/sync";
import { useListState } from "../utils/use-list-state";
import { ConfirmDeleteDialog } from "./confirm-delete-dialog";
import { EmailText, ListView } from "./list-view";
import type { TColumn } from "./list-view";
import { EmailWithInvitation, InvitationActions } from "./invitation-status";
import { PageHeader } from "./page-header";
import { SyncStatus } from "./sync-status";

const columns: ReadonlyArray<TColumn<TClient>> = [
  { header: "Client ID", cell: (client) => client.client_id, className: "whitespace-nowrap" },
  { header: "First Name", cell: (client) => client.first_name },
  { header: "Last Name", cell: (client) => client.last_name },
  {
    header: "Email",
    // The Invited state (D55) under the address while they have not set a password.
    cell: (client) => (
      <EmailWithInvitation email={<EmailText email={client.email} />} invitation={client.invitation} />
    ),
  },
  { header: "Assigned Employees", cell: (client) => namesOrNone(client.employees) },
  // Not in the spec's table (DEVIATION D29): whether Sigma has the client's latest details.
  { header: "Sigma sync", cell: (client) => <ClientSync client={client} /> },
];

/** A row's sync state, with its own Retry (each row retries and reports on its own). */
function ClientSync({ client }: { client: TClient }) {
  const resync = useResyncClient();
  return (
    <SyncStatus
      variant="compact"
      status={client.sync_status}
      error={client.sync_error}
      waitingSince={client.sync_waiting_since}
      onRetry={() => resync.mutate(client.c_id)}
      retry={retryStateOf(resync)}
      subject={`client ${client.client_id}`}
    />
  );
}

/** The edit screen of a client: the row goes along in the navigation state, the Client ID in the address. */
export const editClientLink = (client: TClient) => ({
  to: `/admin/edit-client?id=${encodeURIComponent(client.client_id)}`,
  state: { client },
});

/** /admin and /admin/client-list. */
export function ClientListPage() {
  const list = useListState();
  const query = useClients({ q: list.q || undefined, offset: list.offset, limit: list.limit });
  const [toDelete, setToDelete] = useState<TClient | null>(null);
  const deleteClient = useDeleteClient();

  const confirmDelete = () => {
    if (!toDelete) return;
    deleteClient.mutate(toDelete.c_id, {
      onSettled: () => setToDelete(null),
      // Spec section 8: delete errors appear in a browser alert.
      onError: (error) => window.alert(getErrorMessage(error, "The client could not be deleted.")),
    });
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="Clients"
        description="Everyone the firm advises, their sign-in email and the advisors assigned to them."
        action={
          <div className="flex flex-wrap gap-3">
            <Link to="/admin/import?kind=client" className={buttonClasses("secondary")}>
              Import CSV
            </Link>
            <Link to="/admin/add-client" className={buttonClasses("primary")}>
              +Add Client
            </Link>
          </div>
        }
      />
      <ListView
        caption="Clients"
        searchLabel="Search clients"
        searchPlaceholder="Search by client ID, name or email"
        list={list}
        query={query}
        columns={columns}
        rowKey={(client) => client.c_id}
        rowLink={editClientLink}
        rowLinkLabel={(client) => `Edit client ${client.client_id}`}
        actionsHeader="Actions"
        rowActions={(client) =>
          client.invitation ? (
            <InvitationActions
              kind="client"
              id={client.c_id}
              invitation={client.invitation}
              name={fullName(client)}
            />
          ) : null
        }
        onDelete={setToDelete}
        deleteLabel={(client) => `client ${client.client_id}`}
        emptyText="No clients found."
        loadErrorFallback="Failed to load clients."
      />
      <ConfirmDeleteDialog
        open={toDelete !== null}
        title="Are you sure you want to delete this client?"
        description={
          toDelete ? (
            <>
              <strong className="font-semibold text-navy-900">
                {fullName(toDelete)} ({toDelete.client_id})
              </strong>{" "}
              loses access to the portal at once, with their workbook and advisor assignments. This cannot be
              undone.
            </>
          ) : null
        }
        pending={deleteClient.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
