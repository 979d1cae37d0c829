import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";

import { FormPage, SubmitFooter } from "@/components/admin/form-layout";
import { hasMissingFields, passwordPolicyError, saveState } from "@/lib/form-errors";
import { useToListWithNotice } from "@/lib/notice";

import { useAddPerson } from "../api/people";
import type { TAssignedOption, TPersonRow, TPersonUi } from "../utils/person-ui";
import { signInMethodResolver } from "../utils/sign-in-method";
import type { TSignInMethod } from "../utils/sign-in-method";
import { AssignmentPicker } from "./assignment-picker";
import { AccessFields, PersonIdentityFields } from "./person-fields";
import { SigmaRegistration, useSigmaRegistration } from "./registration-frame";
import { SignInMethodFields } from "./sign-in-method";

type TAddFormValues = Record<string, string> & { signInMethod: TSignInMethod };

/**
 * /admin/add-client and /admin/add-employee. After the API has registered the person, a hidden frame loads
 * their embed URL so Sigma knows them too ('Registering client in Sigma...'); its `load` leads to the list.
 * Nothing assigned → no embed URL (DEVIATION D18) → straight to the list. "Send an invitation" (the
 * default, D55) has no embed until they accept, so it goes straight to the list, saying where it went.
 */
export function AddPersonPage<R extends TPersonRow>({ kind }: { kind: TPersonUi<R> }) {
  const { words, text, routes } = kind;
  const registered = `✅ ${words.noun} registered successfully!`;
  const addPerson = useAddPerson(kind);
  const registration = useSigmaRegistration(routes.list, text.registeredNotice);
  const toListWithNotice = useToListWithNotice(routes.list);
  const [picked, setPicked] = useState<TAssignedOption[]>([]);
  const form = useForm<TAddFormValues, unknown, TAddFormValues>({
    resolver: signInMethodResolver(kind.forms.add as never, kind.forms.invite as never),
    defaultValues: {
      [words.businessIdField]: "",
      firstName: "",
      lastName: "",
      email: "",
      password: "",
      privilege: "",
      signInMethod: "invite",
    },
  });

  const onSubmit = form.handleSubmit(({ signInMethod, password, ...person }) => {
    addPerson.mutate(
      {
        ...person,
        ...(signInMethod === "invite" ? { invite: true } : { password }),
        role: kind.kind,
        ...kind.addAssigned(picked),
      },
      {
        onSuccess: (answer) =>
          signInMethod === "invite"
            ? toListWithNotice(`✅ ${answer.message}`)
            : registration.onRegistered(answer),
        onError: (error) => {
          const policy = passwordPolicyError(error);
          if (policy) form.setError("password", { message: policy });
        },
      },
    );
  });

  const busy = addPerson.isPending || addPerson.isSuccess;

  return (
    <FormPage
      title={`Add ${words.noun}`}
      description={text.addDescription}
      backTo={routes.list}
      backLabel={`Back to ${text.plural.toLowerCase()}`}
    >
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate>
          <fieldset disabled={busy} className="contents">
            <PersonIdentityFields
              title={words.noun}
              description={text.identityDescription}
              idLabel={words.idLabel}
              idName={words.businessIdField}
            />
            <SignInMethodFields
              description={text.signInDescription}
              emailLabel={text.emailLabel}
              passwordHint={text.passwordHint}
            />
            <AccessFields description={text.accessDescription}>
              <AssignmentPicker
                assignable={kind.assign}
                selected={picked}
                onChange={setPicked}
                disabled={busy}
              />
            </AccessFields>
          </fieldset>
          <SubmitFooter
            cancelTo={routes.list}
            submitLabel={`Register ${words.noun}`}
            pendingLabel="Registering..."
            {...saveState(addPerson, text.addFailed)}
            missingFields={hasMissingFields(form.formState.errors)}
            success={addPerson.isSuccess ? registered : undefined}
          >
            <SigmaRegistration registration={registration} text={`Registering ${text.one} in Sigma...`} />
          </SubmitFooter>
        </form>
      </FormProvider>
    </FormPage>
  );
}
