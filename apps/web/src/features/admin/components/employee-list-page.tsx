import { useState } from "react";
import { Link } from "react-router";

import type { TEmployee } from "@portal/contracts";

import { buttonClasses } from "@/components/ui/button";
import { getErrorMessage } from "@/lib/errors";

import { useDeleteEmployee } from "../api/delete-employee";
import { useEmployees } from "../api/get-employees";
import { useResyncEmployee } from "../api/resync-employee";
import { fullName, namesOrNone } from "../utils/people";
import { retryStateOf } from "../utils/sync";
import { useListState } from "../utils/use-list-state";
import { ConfirmDeleteDialog } from "./confirm-delete-dialog";
import { EmailText, ListView } from "./list-view";
import type { TColumn } from "./list-view";
import { EmailWithInvitation, InvitationActions } from "./invitation-status";
import { PageHeader } from "./page-header";
import { SyncStatus } from "./sync-status";

const columns: ReadonlyArray<TColumn<TEmployee>> = [
  { header: "Employee ID", cell: (employee) => employee.employee_id, className: "whitespace-nowrap" },
  { header: "First Name", cell: (employee) => employee.first_name },
  { header: "Last Name", cell: (employee) => employee.last_name },
  {
    header: "Email",
    // The Invited state (D55) under the address while they have not set a password.
    cell: (employee) => (
      <EmailWithInvitation email={<EmailText email={employee.email} />} invitation={employee.invitation} />
    ),
  },
  { header: "Assigned Clients", cell: (employee) => namesOrNone(employee.clients) },
  // Not in the spec's table (DEVIATION D29): whether Sigma has the employee's latest details.
  { header: "Sigma sync", cell: (employee) => <EmployeeSync employee={employee} /> },
];

/** A row's sync state, with its own Retry (each row retries and reports on its own). */
function EmployeeSync({ employee }: { employee: TEmployee }) {
  const resync = useResyncEmployee();
  return (
    <SyncStatus
      variant="compact"
      status={employee.sync_status}
      error={employee.sync_error}
      waitingSince={employee.sync_waiting_since}
      onRetry={() => resync.mutate(employee.e_id)}
      retry={retryStateOf(resync)}
      subject={`employee ${employee.employee_id}`}
    />
  );
}

/** The edit screen of an employee: the row goes along in the navigation state, the Employee ID in the address. */
export const editEmployeeLink = (employee: TEmployee) => ({
  to: `/admin/edit-employee?id=${encodeURIComponent(employee.employee_id)}`,
  state: { employee },
});

/** /admin/employee-list. */
export function EmployeeListPage() {
  const list = useListState();
  const query = useEmployees({ q: list.q || undefined, offset: list.offset, limit: list.limit });
  const [toDelete, setToDelete] = useState<TEmployee | null>(null);
  const deleteEmployee = useDeleteEmployee();

  const confirmDelete = () => {
    if (!toDelete) return;
    deleteEmployee.mutate(toDelete.e_id, {
      onSettled: () => setToDelete(null),
      // Spec section 8: delete errors appear in a browser alert.
      onError: (error) => window.alert(getErrorMessage(error, "The employee could not be deleted.")),
    });
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="Employees"
        description="The firm's advisors, their sign-in email and the clients each one looks after."
        action={
          <div className="flex flex-wrap gap-3">
            <Link to="/admin/import?kind=employee" className={buttonClasses("secondary")}>
              Import CSV
            </Link>
            <Link to="/admin/add-employee" className={buttonClasses("primary")}>
              +Add Employee
            </Link>
          </div>
        }
      />
      <ListView
        caption="Employees"
        searchLabel="Search employees"
        searchPlaceholder="Search by employee ID, name or email"
        list={list}
        query={query}
        columns={columns}
        rowKey={(employee) => employee.e_id}
        rowLink={editEmployeeLink}
        rowLinkLabel={(employee) => `Edit employee ${employee.employee_id}`}
        actionsHeader="Actions"
        rowActions={(employee) =>
          employee.invitation ? (
            <InvitationActions
              kind="employee"
              id={employee.e_id}
              invitation={employee.invitation}
              name={fullName(employee)}
            />
          ) : null
        }
        onDelete={setToDelete}
        deleteLabel={(employee) => `employee ${employee.employee_id}`}
        emptyText="No employees found."
        loadErrorFallback="Failed to load employees."
      />
      <ConfirmDeleteDialog
        open={toDelete !== null}
        title="Are you sure you want to delete this employee?"
        description={
          toDelete ? (
            <>
              <strong className="font-semibold text-navy-900">
                {fullName(toDelete)} ({toDelete.employee_id})
              </strong>{" "}
              loses access to the portal at once and is unassigned from their clients. This cannot be undone.
            </>
          ) : null
        }
        pending={deleteEmployee.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
