import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import type { ReactNode } from "react";
import { FormProvider, useForm } from "react-hook-form";

import { ActionScope } from "@/components/admin/action-scope";
import { FormPage, ReadOnlySection, SubmitFooter } from "@/components/admin/form-layout";
import { hasMissingFields, saveState } from "@/lib/form-errors";
import { useToListWithNotice } from "@/lib/notice";

import { useEditPerson, useResyncPerson } from "../api/people";
import type { TAssignedOption, TPersonRow, TPersonUi } from "../utils/person-ui";
import { fullName } from "../utils/people";
import { AssignmentPicker } from "./assignment-picker";
import { PasswordResetEmail } from "./password-reset-email";
import { AccessFields, PersonIdentityFields, RegisteredSignIn, SigmaSyncItem } from "./person-fields";
import { personParts } from "./person-parts";
import { PersonTargetPage } from "./person-target-page";
import { SignOutEverywhere } from "./sign-out-everywhere";
import { TwoFactorReset } from "./two-factor-reset";

/**
 * /admin/edit-client?id=<Client ID> and /admin/edit-employee?id=<Employee ID>. The list passes the person
 * along in the navigation state; opened from the address bar (reload, bookmark) they are looked up by the
 * ID in `?id=`.
 */
export function EditPersonPage<R extends TPersonRow>({
  kind,
  sections,
}: {
  kind: TPersonUi<R>;
  /**
   * Sections of other features about the person, under the form card (Edit Client: the household and the
   * people with access), composed by the route. Outside the form: they have forms of their own.
   */
  sections?: ((person: R) => ReactNode) | undefined;
}) {
  return (
    <PersonTargetPage kind={kind} title={`Edit ${kind.words.noun}`}>
      {(person) => (
        <>
          <EditPersonForm kind={kind} person={person} />
          {sections ? <div className="mx-auto mt-6 max-w-3xl space-y-6">{sections(person)}</div> : null}
        </>
      )}
    </PersonTargetPage>
  );
}

function EditPersonForm<R extends TPersonRow>({ kind, person }: { kind: TPersonUi<R>; person: R }) {
  const { words, text, routes } = kind;
  const { EditDetails, EditExtras } = personParts<R>(kind.kind);
  const updated = `${words.noun} updated successfully!`;
  const toList = useToListWithNotice(routes.list);
  const editPerson = useEditPerson(kind);
  const resync = useResyncPerson(kind.kind);
  // null: this kind's edit screen assigns nothing (Edit Client).
  const [picked, setPicked] = useState<TAssignedOption[] | null>(() => kind.editAssigned(person));
  const form = useForm<Record<string, string>>({
    resolver: zodResolver(kind.forms.edit as never),
    defaultValues: kind.editDefaults(person),
  });

  const onSubmit = form.handleSubmit((values) => {
    editPerson.mutate(kind.editBody(person, values, picked ?? []), { onSuccess: () => toList(updated) });
  });

  const busy = editPerson.isPending || editPerson.isSuccess;
  const id = kind.idOf(person);
  const target = { kind: kind.kind, id };

  return (
    <FormPage
      title={`Edit ${words.noun}`}
      description={text.editDescription}
      backTo={routes.list}
      backLabel={`Back to ${text.plural.toLowerCase()}`}
    >
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate>
          <fieldset disabled={busy} className="contents">
            <PersonIdentityFields title={words.noun} idLabel={words.idLabel} idName={words.businessIdField} />
            {picked ? (
              <AccessFields>
                <AssignmentPicker
                  assignable={kind.assign}
                  selected={picked}
                  onChange={setPicked}
                  disabled={busy}
                />
              </AccessFields>
            ) : null}
          </fieldset>
          <ActionScope>
            <ReadOnlySection title={text.readOnlyTitle}>
              <RegisteredSignIn
                emailLabel={text.emailLabel}
                email={person.email}
                invited={Boolean(person.invitation)}
              />
              {EditDetails ? <EditDetails row={person} /> : null}
              <SigmaSyncItem person={person} id={id} resync={resync} />
              <TwoFactorReset target={target} name={fullName(person)} enabled={person.two_factor_enabled} />
              <SignOutEverywhere target={target} name={fullName(person)} />
              <PasswordResetEmail
                kind={kind.kind}
                id={id}
                name={fullName(person)}
                invitation={person.invitation}
              />
              {EditExtras ? <EditExtras row={person} /> : null}
            </ReadOnlySection>
          </ActionScope>
          <SubmitFooter
            cancelTo={routes.list}
            submitLabel={`Update ${words.noun}`}
            pendingLabel="Updating..."
            {...saveState(editPerson, text.updateFailed)}
            missingFields={hasMissingFields(form.formState.errors)}
            success={editPerson.isSuccess ? updated : undefined}
          />
        </form>
      </FormProvider>
    </FormPage>
  );
}
