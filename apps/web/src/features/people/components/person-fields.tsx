import type { ReactNode } from "react";
import { useFormContext } from "react-hook-form";

import { FormSection, MaskedPassword, ReadOnlyItem } from "@/components/admin/form-layout";
import { SelectField, TextField } from "@/components/ui/field";
import { fieldError } from "@/lib/form-errors";

import { PRIVILEGE_OPTIONS } from "../utils/privileges";
import { retryStateOf } from "../utils/sync-status";
import type { TSyncStatus } from "../utils/sync-status";
import { SyncStatus } from "./sync-status";

/**
 * The fields of the client and employee forms, by the names their form schemas give them. A form has
 * the ID of its own kind and only the fields its screen edits; the fields below find it through
 * react-hook-form's `FormProvider`.
 */
type TPersonFormFields = {
  clientId: string;
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  privilege: string;
};

type TResyncMutation = Parameters<typeof retryStateOf>[0] & { mutate: (id: number) => void };

/** A field registered with the form, with its message (a blank one reads 'This field is required.'). */
function usePersonField(name: keyof TPersonFormFields) {
  const {
    register,
    formState: { errors },
  } = useFormContext<TPersonFormFields>();
  return { ...register(name), error: fieldError(errors[name]?.message) };
}

/** The business ID and the name of a client or an employee (Add and Edit). */
export function PersonIdentityFields({
  title,
  description,
  idLabel,
  idName,
}: {
  title: string;
  description?: string;
  idLabel: string;
  idName: "clientId" | "employeeId";
}) {
  const id = usePersonField(idName);
  const firstName = usePersonField("firstName");
  const lastName = usePersonField("lastName");
  return (
    <FormSection title={title} description={description}>
      <TextField label={idLabel} autoComplete="off" {...id} />
      <div className="hidden sm:block" />
      <TextField label="First Name" autoComplete="off" {...firstName} />
      <TextField label="Last Name" autoComplete="off" {...lastName} />
    </FormSection>
  );
}

/**
 * The Access section: the Privilege select (it starts at 'Select a privilege', which reads as a missing
 * field), then the picker of what the person is assigned (a client's workbooks, an employee's clients).
 */
export function AccessFields({ description, children }: { description?: string; children: ReactNode }) {
  const privilege = usePersonField("privilege");
  return (
    <FormSection title="Access" description={description}>
      <SelectField label="Privilege" options={PRIVILEGE_OPTIONS} {...privilege} />
      <div className="sm:col-span-2">{children}</div>
    </FormSection>
  );
}

/**
 * Edit screens: the sign-in as registered; the password is never shown. Someone invited who has not chosen one
 * yet (`invited`, D55) has none to mask.
 */
export function RegisteredSignIn({
  emailLabel,
  email,
  invited = false,
}: {
  emailLabel: string;
  email: string;
  invited?: boolean;
}) {
  return (
    <>
      <ReadOnlyItem label={emailLabel}>{email}</ReadOnlyItem>
      <ReadOnlyItem label="Password">
        {invited ? <span className="text-slate-500">Not chosen yet (invited)</span> : <MaskedPassword />}
      </ReadOnlyItem>
    </>
  );
}

/** Edit screens: whether Sigma has the person's latest details, with a retry of failed changes. */
export function SigmaSyncItem({
  person,
  id,
  resync,
}: {
  person: {
    sync_status: TSyncStatus;
    sync_error: string | null;
    sync_waiting_since: string | null;
    managed_in_sigma: boolean;
  };
  /** The person's record id (`c_id` / `e_id`), which the resync is for. */
  id: number;
  /** useResyncPerson(kind) (api/people.ts). */
  resync: TResyncMutation;
}) {
  return (
    <ReadOnlyItem label="Sigma sync" wide>
      {person.managed_in_sigma ? (
        <p className="mb-1 text-sm">
          <span className="font-semibold text-navy-950">Managed in Sigma.</span>{" "}
          <span className="text-slate-600">
            This person also signs in to Sigma directly: their account type, teams and attributes are set in
            Sigma, and the portal never changes them.
          </span>
        </p>
      ) : null}
      <SyncStatus
        status={person.sync_status}
        error={person.sync_error}
        waitingSince={person.sync_waiting_since}
        onRetry={() => resync.mutate(id)}
        retry={retryStateOf(resync)}
      />
    </ReadOnlyItem>
  );
}
