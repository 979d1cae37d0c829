import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";

import { ZAddClientFormSchema, ZAddClientInviteFormSchema, useAddClient } from "../api/add-client";
import type { TAddClientFormInput, TAddClientFormValues } from "../api/add-client";
import { hasMissingFields, passwordPolicyError, saveState } from "../utils/form-errors";
import { useToListWithNotice } from "../utils/notice";
import { signInMethodResolver } from "../utils/sign-in-method";
import type { TSignInMethod } from "../utils/sign-in-method";
import { FormPage, SubmitFooter } from "./form-layout";
import { AccessFields, PersonIdentityFields } from "./person-fields";
import { SigmaRegistration, useSigmaRegistration } from "./registration-frame";
import { SignInMethodFields } from "./sign-in-method";
import { WorkbookPicker } from "./workbook-picker";
import type { TWorkbookOption } from "./workbook-picker";

export const CLIENT_REGISTERED = "✅ Client registered successfully!";
export const REGISTERING_CLIENT = "Registering client in Sigma...";

const LIST = "/admin/client-list";

/**
 * /admin/add-client. After the API has registered the client, a hidden frame loads their embed URL so
 * Sigma knows them too ('Registering client in Sigma...'); its `load` leads to the client list. No
 * workbook chosen → no embed URL (DEVIATION D18) → straight to the list.
 */
export function AddClientPage() {
  const addClient = useAddClient();
  const registration = useSigmaRegistration(LIST, CLIENT_REGISTERED);
  const toListWithNotice = useToListWithNotice(LIST);
  const [workbooks, setWorkbooks] = useState<TWorkbookOption[]>([]);
  const form = useForm<
    TAddClientFormInput & { signInMethod: TSignInMethod },
    unknown,
    TAddClientFormValues & { signInMethod: TSignInMethod }
  >({
    resolver: signInMethodResolver(ZAddClientFormSchema, ZAddClientInviteFormSchema),
    defaultValues: {
      clientId: "",
      firstName: "",
      lastName: "",
      email: "",
      password: "",
      privilege: "",
      signInMethod: "invite",
    },
  });

  const onSubmit = form.handleSubmit(({ signInMethod, password, ...person }) => {
    addClient.mutate(
      {
        ...person,
        ...(signInMethod === "invite" ? { invite: true as const } : { password }),
        role: "client",
        workbookIds: workbooks.map((workbook) => workbook.value),
        // Spec payload; the server derives the teams itself (DEVIATION D17).
        teams: [...new Set(workbooks.map((workbook) => workbook.team))],
      },
      {
        // An invitation (D55): no embed until they accept, so straight to the list, saying where it went.
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

  const registered = addClient.isSuccess;
  const busy = addClient.isPending || registered;

  return (
    <FormPage
      title="Add Client"
      description="Registers the client, creates their sign-in and assigns the workbooks they will see."
      backTo={LIST}
      backLabel="Back to clients"
    >
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate>
          <fieldset disabled={busy} className="contents">
            <PersonIdentityFields
              title="Client"
              description="How the firm identifies the client."
              idLabel="Client ID"
              idName="clientId"
            />
            <SignInMethodFields
              description="The client signs in at the portal with these."
              emailLabel="Email"
              passwordHint="At least 8 characters. Share it with the client securely."
            />
            <AccessFields description="What the client may do and see in the workbooks.">
              <WorkbookPicker selected={workbooks} onChange={setWorkbooks} disabled={busy} />
            </AccessFields>
          </fieldset>
          <SubmitFooter
            cancelTo={LIST}
            submitLabel="Register Client"
            pendingLabel="Registering..."
            {...saveState(addClient, "The client could not be registered.")}
            missingFields={hasMissingFields(form.formState.errors)}
            success={registered ? CLIENT_REGISTERED : undefined}
          >
            <SigmaRegistration registration={registration} text={REGISTERING_CLIENT} />
          </SubmitFooter>
        </form>
      </FormProvider>
    </FormPage>
  );
}
