import { useState } from "react";
import { Link } from "react-router";

import { ConfirmDeleteOnDemand } from "@/components/admin/confirm-delete-on-demand";
import { EmailText, ListView } from "@/components/admin/list-view";
import type { TColumn } from "@/components/admin/list-view";
import { PageHeader } from "@/components/admin/page-header";
import { buttonClasses } from "@/components/ui/button";
import { getErrorMessage } from "@/lib/errors";
import { useListState } from "@/lib/use-list-state";

import { useDeletePerson, usePeople, useResyncPerson } from "../api/people";
import type { TPersonRow, TPersonUi } from "../utils/person-ui";
import { fullName } from "../utils/people";
import { retryStateOf } from "../utils/sync-status";
import { EmailWithInvitation, InvitationActions } from "./invitation-status";
import { SyncStatus } from "./sync-status";

/** The edit screen of a person: the row goes along in the navigation state, the business ID in the address. */
export const editPersonLink =
  <R extends TPersonRow>(kind: TPersonUi<R>) =>
  (person: R) => ({
    to: `${kind.routes.edit}?id=${encodeURIComponent(kind.businessIdOf(person))}`,
    state: { [kind.kind]: person },
  });

function columnsOf<R extends TPersonRow>(kind: TPersonUi<R>): ReadonlyArray<TColumn<R>> {
  return [
    { header: kind.words.idLabel, cell: kind.businessIdOf, className: "whitespace-nowrap" },
    { header: "First Name", cell: (person) => person.first_name },
    { header: "Last Name", cell: (person) => person.last_name },
    {
      header: "Email",
      // The Invited state (D55) under the address while they have not set a password.
      cell: (person) => (
        <EmailWithInvitation email={<EmailText email={person.email} />} invitation={person.invitation} />
      ),
    },
    { header: kind.assigned.header, cell: kind.assigned.cell },
    // Not in the spec's table (DEVIATION D29): whether Sigma has the person's latest details.
    { header: "Sigma sync", cell: (person) => <PersonSync kind={kind} person={person} /> },
  ];
}

/** A row's sync state, with its own Retry (each row retries and reports on its own). */
function PersonSync<R extends TPersonRow>({ kind, person }: { kind: TPersonUi<R>; person: R }) {
  const resync = useResyncPerson(kind.kind);
  return (
    <SyncStatus
      variant="compact"
      status={person.sync_status}
      error={person.sync_error}
      waitingSince={person.sync_waiting_since}
      onRetry={() => resync.mutate(kind.idOf(person))}
      retry={retryStateOf(resync)}
      subject={`${kind.text.one} ${kind.businessIdOf(person)}`}
    />
  );
}

/** /admin/client-list (and /admin) and /admin/employee-list. */
export function PersonListPage<R extends TPersonRow>({ kind }: { kind: TPersonUi<R> }) {
  const list = useListState();
  const query = usePeople(kind, { q: list.q || undefined, offset: list.offset, limit: list.limit });
  const [toDelete, setToDelete] = useState<R | null>(null);
  const deletePerson = useDeletePerson(kind);
  const { text, words } = kind;

  const confirmDelete = () => {
    if (!toDelete) return;
    deletePerson.mutate(kind.idOf(toDelete), {
      onSettled: () => setToDelete(null),
      // Spec section 8: delete errors appear in a browser alert.
      onError: (error) => window.alert(getErrorMessage(error, text.deleteFailed)),
    });
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title={text.plural}
        description={text.listDescription}
        action={
          <div className="flex flex-wrap gap-3">
            <Link to={kind.routes.import} className={buttonClasses("secondary")}>
              Import CSV
            </Link>
            <Link to={kind.routes.add} className={buttonClasses("primary")}>
              +Add {words.noun}
            </Link>
          </div>
        }
      />
      <ListView
        caption={text.plural}
        searchLabel={`Search ${text.plural.toLowerCase()}`}
        searchPlaceholder={text.searchPlaceholder}
        list={list}
        query={query}
        columns={columnsOf(kind)}
        rowKey={kind.idOf}
        rowLink={editPersonLink(kind)}
        rowLinkLabel={(person) => `Edit ${text.one} ${kind.businessIdOf(person)}`}
        actionsHeader="Actions"
        rowActions={(person) =>
          person.invitation ? (
            <InvitationActions
              kind={kind.kind}
              id={kind.idOf(person)}
              invitation={person.invitation}
              name={fullName(person)}
            />
          ) : null
        }
        onDelete={setToDelete}
        deleteLabel={(person) => `${text.one} ${kind.businessIdOf(person)}`}
        emptyText={`No ${text.plural.toLowerCase()} found.`}
        loadErrorFallback={text.loadListFailed}
      />
      <ConfirmDeleteOnDemand
        open={toDelete !== null}
        title={`Are you sure you want to delete this ${text.one}?`}
        description={
          toDelete ? (
            <>
              <strong className="font-semibold text-navy-900">
                {fullName(toDelete)} ({kind.businessIdOf(toDelete)})
              </strong>{" "}
              loses access to the portal at once{text.deleteConsequence}
            </>
          ) : null
        }
        pending={deletePerson.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
