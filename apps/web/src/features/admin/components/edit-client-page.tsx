import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";

import { MAX_PAGE_SIZE, ZClientSchema, workbookLabel } from "@portal/contracts";
import type { TClient } from "@portal/contracts";

import { Button, buttonClasses } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";

import { UPDATE_CLIENT_FAILED, ZEditClientFormSchema, useEditClient } from "../api/edit-client";
import type { TEditClientFormInput, TEditClientFormValues } from "../api/edit-client";
import { useClient } from "../api/find-client";
import { useResyncClient } from "../api/resync-client";
import { useWorkbooks } from "../api/get-workbooks";
import { passedRecord } from "../utils/edit-state";
import { ALL_FIELDS_REQUIRED, fieldError, hasMissingFields } from "../utils/form-errors";
import type { TNoticeState } from "../utils/notice";
import { namesOrNone } from "../utils/people";
import { retryStateOf } from "../utils/sync";
import { EditTargetState } from "./edit-target";
import { FormFooter, FormPage, FormSection, MaskedPassword, ReadOnlyItem } from "./form-layout";
import { PrivilegeBadge } from "./privilege-badge";
import { SyncStatus } from "./sync-status";

export const CLIENT_UPDATED = "Client updated successfully!";

const LIST = "/admin/client-list";

/**
 * /admin/edit-client?id=<Client ID>. The list passes the client along in the navigation state; opened
 * from the address bar (reload, bookmark) the client is looked up by the Client ID in `?id=`.
 */
export function EditClientPage() {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const idInAddress = searchParams.get("id") ?? "";
  const passed = passedRecord<TClient>(
    location.state,
    "client",
    ZClientSchema,
    (client) => !idInAddress || client.client_id === idInAddress,
  );
  const clientId = passed?.client_id ?? idInAddress;
  const lookup = useClient(clientId, passed);
  const client = passed ?? lookup.data;

  if (!client) {
    return (
      <EditTargetState
        title="Edit Client"
        loading={clientId !== "" && lookup.isPending}
        message={
          clientId === ""
            ? "No client selected. Choose one from the client list."
            : getErrorMessage(lookup.error, "Failed to load the client.")
        }
        listTo={LIST}
        listLabel="Back to clients"
      />
    );
  }
  return <EditClientForm key={client.c_id} client={client} />;
}

function EditClientForm({ client }: { client: TClient }) {
  const navigate = useNavigate();
  const editClient = useEditClient();
  const resync = useResyncClient();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TEditClientFormInput, unknown, TEditClientFormValues>({
    resolver: zodResolver(ZEditClientFormSchema),
    defaultValues: { clientId: client.client_id, firstName: client.first_name, lastName: client.last_name },
  });

  const onSubmit = handleSubmit((values) => {
    editClient.mutate(
      // Privilege is read-only here; the stored value goes back unchanged (DEVIATION D16).
      { cId: client.c_id, ...values, privilege: client.privilege },
      {
        onSuccess: () => void navigate(LIST, { state: { notice: CLIENT_UPDATED } satisfies TNoticeState }),
      },
    );
  });

  return (
    <FormPage
      title="Edit Client"
      description="Change the client's ID or name. Sign-in details, privilege and workbooks stay as registered."
      backTo={LIST}
      backLabel="Back to clients"
    >
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={editClient.isPending || editClient.isSuccess} className="contents">
          <FormSection title="Client">
            <TextField
              label="Client ID"
              autoComplete="off"
              error={fieldError(errors.clientId?.message)}
              {...register("clientId")}
            />
            <div className="hidden sm:block" />
            <TextField
              label="First Name"
              autoComplete="off"
              error={fieldError(errors.firstName?.message)}
              {...register("firstName")}
            />
            <TextField
              label="Last Name"
              autoComplete="off"
              error={fieldError(errors.lastName?.message)}
              {...register("lastName")}
            />
          </FormSection>
        </fieldset>
        <div className="border-b border-slate-100 px-5 py-6 sm:px-8">
          <h2 className="text-sm font-semibold text-navy-950">Sign-in and access</h2>
          <p className="mt-0.5 text-sm text-slate-500">Read-only on this screen.</p>
          <dl className="mt-5 grid grid-cols-1 gap-5 sm:grid-cols-2">
            <ReadOnlyItem label="Email">{client.email}</ReadOnlyItem>
            <ReadOnlyItem label="Password">
              <MaskedPassword />
            </ReadOnlyItem>
            <ReadOnlyItem label="Privilege">
              <PrivilegeBadge privilege={client.privilege} />
            </ReadOnlyItem>
            <ReadOnlyItem label="Assigned Employees">{namesOrNone(client.employees)}</ReadOnlyItem>
            <div className="sm:col-span-2">
              <ReadOnlyItem label="Sigma sync">
                <SyncStatus
                  status={client.sync_status}
                  error={client.sync_error}
                  onRetry={() => resync.mutate(client.c_id)}
                  retry={retryStateOf(resync)}
                />
              </ReadOnlyItem>
            </div>
            <div className="sm:col-span-2">
              <ReadOnlyItem label="Workbooks">
                <AssignedWorkbooks workbookIds={client.workbook_ids} />
              </ReadOnlyItem>
            </div>
          </dl>
        </div>
        <FormFooter
          messages={
            <>
              {hasMissingFields(errors) ? (
                <FormMessage tone="error">{ALL_FIELDS_REQUIRED}</FormMessage>
              ) : null}
              {editClient.isError ? (
                <FormMessage tone="error">
                  {getErrorMessage(editClient.error, UPDATE_CLIENT_FAILED)}
                </FormMessage>
              ) : null}
              {editClient.isSuccess ? <FormMessage tone="success">{CLIENT_UPDATED}</FormMessage> : null}
            </>
          }
        >
          <Link to={LIST} className={buttonClasses("secondary")}>
            Cancel
          </Link>
          <Button type="submit" isLoading={editClient.isPending} disabled={editClient.isSuccess}>
            {editClient.isPending ? "Updating..." : "Update Client"}
          </Button>
        </FormFooter>
      </form>
    </FormPage>
  );
}

/** The names of the client's workbooks, from the catalogue (spec: a failure to load it is only logged). */
function AssignedWorkbooks({ workbookIds }: { workbookIds: ReadonlyArray<number> }) {
  const catalogue = useWorkbooks({ limit: MAX_PAGE_SIZE, sort: "id" }, { enabled: workbookIds.length > 0 });
  const { error } = catalogue;
  useEffect(() => {
    if (error) console.error("Loading the workbook names for Edit Client failed", error);
  }, [error]);

  if (workbookIds.length === 0) return <span className="text-slate-500">No workbooks assigned</span>;
  if (catalogue.isPending && !error) return <span className="text-slate-500">Loading...</span>;

  const names = new Map(
    (catalogue.data?.rows ?? []).map((workbook) => [workbook.id, workbook.workbook_name]),
  );
  return (
    <ul className="flex flex-wrap gap-2">
      {workbookIds.map((id) => {
        const name = names.get(id);
        return (
          <li
            key={id}
            title={name}
            className="flex max-w-full min-w-0 flex-col rounded-lg bg-slate-50 px-3 py-1.5 ring-1 ring-slate-200 ring-inset"
          >
            <span className="truncate font-medium text-navy-950">
              {name ? workbookLabel(name) : `Workbook ${id}`}
            </span>
            {name ? <span className="truncate text-xs text-slate-500">{name}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
