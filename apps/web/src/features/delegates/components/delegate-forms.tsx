import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import type { FormEvent, ReactNode } from "react";
import { FormProvider, useForm } from "react-hook-form";

import type { TDelegate } from "@portal/contracts";

import { TextField } from "@/components/ui/field";
import { FormActions } from "@/components/ui/form-actions";
import { FormMessage } from "@/components/ui/form-message";
import { fieldError } from "@/lib/form-errors";

import {
  ZDelegateAccessFormSchema,
  ZDelegateInviteFormSchema,
  accessDefaults,
  changeBody,
  inviteBody,
  inviteDefaults,
} from "../utils/delegate-form";
import type {
  TDelegateAccessForm,
  TDelegateInviteForm,
  TDelegateInviteFormInput,
} from "../utils/delegate-form";
import { AccessFields } from "./access-fields";
import type { TShareableWorkbook } from "./access-fields";

type TFormShellProps = {
  title: string;
  description: string;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The refusal to show (the server's message, written for people). */
  error: string | undefined;
  children: ReactNode;
};

/** An inline form panel of the card: its heading, its fields, the refusal, Cancel and the submit button. */
function FormShell({
  title,
  description,
  onSubmit,
  onCancel,
  submitLabel,
  pendingLabel,
  pending,
  error,
  children,
}: TFormShellProps) {
  const id = useId();
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
      className="space-y-5 rounded-xl border border-slate-200 bg-slate-50/60 p-4 sm:p-5"
    >
      <div>
        <h3 id={`${id}-title`} className="text-sm font-semibold text-navy-950">
          {title}
        </h3>
        <p id={`${id}-description`} className="mt-0.5 text-sm text-slate-600">
          {description}
        </p>
      </div>
      <fieldset disabled={pending} className="contents">
        {children}
      </fieldset>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <FormActions
        onCancel={onCancel}
        pending={pending}
        submitLabel={submitLabel}
        pendingLabel={pendingLabel}
      />
    </form>
  );
}

type TFormProps<TBody> = {
  workbooks: ReadonlyArray<TShareableWorkbook>;
  pending: boolean;
  error: string | undefined;
  onSubmit: (body: TBody) => void;
  onCancel: () => void;
};

/** "Invite someone": their name and email, what they may see and until when. */
export function InviteForm({
  description,
  ...props
}: TFormProps<ReturnType<typeof inviteBody>> & { description: string }) {
  const form = useForm<TDelegateInviteFormInput, unknown, TDelegateInviteForm>({
    resolver: zodResolver(ZDelegateInviteFormSchema),
    defaultValues: inviteDefaults(),
  });
  const { errors } = form.formState;
  return (
    <FormProvider {...form}>
      <FormShell
        title="Invite someone"
        description={description}
        onSubmit={form.handleSubmit((values) => props.onSubmit(inviteBody(values)))}
        onCancel={props.onCancel}
        submitLabel="Send invitation"
        pendingLabel="Sending..."
        pending={props.pending}
        error={props.error}
      >
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Name"
            autoComplete="off"
            maxLength={100}
            // The form opens on request ("Invite someone"), so moving focus into it is expected.
            autoFocus
            error={fieldError(errors.name?.message)}
            {...form.register("name")}
          />
          <TextField
            label="Email"
            type="email"
            autoComplete="off"
            maxLength={254}
            error={fieldError(errors.email?.message)}
            {...form.register("email")}
          />
        </div>
        <AccessFields workbooks={props.workbooks} />
      </FormShell>
    </FormProvider>
  );
}

/** "Change": what a delegate may see and until when. */
export function ChangeForm({
  delegate,
  ...props
}: TFormProps<ReturnType<typeof changeBody>> & { delegate: TDelegate }) {
  const form = useForm<TDelegateAccessForm>({
    resolver: zodResolver(ZDelegateAccessFormSchema),
    defaultValues: accessDefaults(
      delegate,
      props.workbooks.map((workbook) => workbook.id),
    ),
  });
  return (
    <FormProvider {...form}>
      <FormShell
        title={`Change ${delegate.name}'s access`}
        description={
          delegate.status === "expired"
            ? "Their end date has passed. Choose a new end date, or clear it, to let them view again."
            : "What they can see, and until when."
        }
        onSubmit={form.handleSubmit((values) => props.onSubmit(changeBody(values)))}
        onCancel={props.onCancel}
        submitLabel="Save changes"
        pendingLabel="Saving..."
        pending={props.pending}
        error={props.error}
      >
        <AccessFields workbooks={props.workbooks} autoFocus />
      </FormShell>
    </FormProvider>
  );
}
