import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { Link } from "react-router";

import { MAX_PAGE_SIZE, workbookLabel } from "@portal/contracts";
import type { TClient } from "@portal/contracts";

import { UPDATE_CLIENT_FAILED, ZEditClientFormSchema, useEditClient } from "../api/edit-client";
import type { TEditClientFormInput, TEditClientFormValues } from "../api/edit-client";
import { buttonClasses } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

import { useResyncClient } from "../api/resync-client";
import { useWorkbooks } from "../api/get-workbooks";
import { hasMissingFields, saveState } from "../utils/form-errors";
import { useToListWithNotice } from "../utils/notice";
import { namesOrNone } from "../utils/people";
import { ClientTargetPage } from "./client-target-page";
import { FormPage, ReadOnlyItem, ReadOnlySection, SubmitFooter } from "./form-layout";
import { PersonIdentityFields, RegisteredSignIn, SigmaSyncItem } from "./person-fields";
import { PrivilegeBadge } from "./privilege-badge";
import { PasswordResetEmail } from "./password-reset-email";
import { SignOutEverywhere } from "./sign-out-everywhere";
import { TwoFactorReset } from "./two-factor-reset";

export const CLIENT_UPDATED = "Client updated successfully!";

const LIST = "/admin/client-list";

/**
 * /admin/edit-client?id=<Client ID>. The list passes the client along in the navigation state; opened
 * from the address bar (reload, bookmark) the client is looked up by the Client ID in `?id=`.
 */
export function EditClientPage() {
  return (
    <ClientTargetPage title="Edit Client">{(client) => <EditClientForm client={client} />}</ClientTargetPage>
  );
}

function EditClientForm({ client }: { client: TClient }) {
  const toList = useToListWithNotice(LIST);
  const editClient = useEditClient();
  const resync = useResyncClient();
  const form = useForm<TEditClientFormInput, unknown, TEditClientFormValues>({
    resolver: zodResolver(ZEditClientFormSchema),
    defaultValues: { clientId: client.client_id, firstName: client.first_name, lastName: client.last_name },
  });

  const onSubmit = form.handleSubmit((values) => {
    editClient.mutate(
      // Privilege is read-only here; the stored value goes back unchanged (DEVIATION D16).
      { cId: client.c_id, ...values, privilege: client.privilege },
      { onSuccess: () => toList(CLIENT_UPDATED) },
    );
  });

  return (
    <FormPage
      title="Edit Client"
      description="Change the client's ID or name. Sign-in details, privilege and workbooks stay as registered."
      backTo={LIST}
      backLabel="Back to clients"
    >
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate>
          <fieldset disabled={editClient.isPending || editClient.isSuccess} className="contents">
            <PersonIdentityFields title="Client" idLabel="Client ID" idName="clientId" />
          </fieldset>
          <ReadOnlySection title="Sign-in and access">
            <RegisteredSignIn emailLabel="Email" email={client.email} invited={Boolean(client.invitation)} />
            <ReadOnlyItem label="Privilege">
              <PrivilegeBadge privilege={client.privilege} />
            </ReadOnlyItem>
            <ReadOnlyItem label="Assigned Employees">{namesOrNone(client.employees)}</ReadOnlyItem>
            <SigmaSyncItem person={client} id={client.c_id} resync={resync} />
            <TwoFactorReset
              target={{ type: "client", cId: client.c_id }}
              name={`${client.first_name} ${client.last_name}`}
              enabled={client.two_factor_enabled}
            />
            <SignOutEverywhere
              target={{ type: "client", cId: client.c_id }}
              name={`${client.first_name} ${client.last_name}`}
            />
            <PasswordResetEmail
              kind="client"
              id={client.c_id}
              name={`${client.first_name} ${client.last_name}`}
              invitation={client.invitation}
            />
            <ReadOnlyItem label="Workbooks" wide>
              <AssignedWorkbooks workbookIds={client.workbook_ids} />
              {client.workbook_ids.length > 0 ? (
                <Link
                  to={`/admin/view-as-client?id=${encodeURIComponent(client.client_id)}`}
                  state={{ client }}
                  className={cn(buttonClasses("secondary", "sm"), "mt-3")}
                >
                  View as client
                </Link>
              ) : null}
            </ReadOnlyItem>
          </ReadOnlySection>
          <SubmitFooter
            cancelTo={LIST}
            submitLabel="Update Client"
            pendingLabel="Updating..."
            {...saveState(editClient, UPDATE_CLIENT_FAILED)}
            missingFields={hasMissingFields(form.formState.errors)}
            success={editClient.isSuccess ? CLIENT_UPDATED : undefined}
          />
        </form>
      </FormProvider>
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
