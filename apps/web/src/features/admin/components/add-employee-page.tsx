import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";

import { ZAddEmployeeFormSchema, ZAddEmployeeInviteFormSchema, useAddEmployee } from "../api/add-employee";
import type { TAddEmployeeFormInput, TAddEmployeeFormValues } from "../api/add-employee";
import { hasMissingFields, passwordPolicyError, saveState } from "../utils/form-errors";
import { useToListWithNotice } from "../utils/notice";
import { signInMethodResolver } from "../utils/sign-in-method";
import type { TSignInMethod } from "../utils/sign-in-method";
import type { TOption } from "../utils/multi-select";
import { ClientPicker } from "./client-picker";
import { FormPage, SubmitFooter } from "./form-layout";
import { AccessFields, PersonIdentityFields } from "./person-fields";
import { SigmaRegistration, useSigmaRegistration } from "./registration-frame";
import { SignInMethodFields } from "./sign-in-method";

export const EMPLOYEE_CREATED = "✅ Employee registered successfully!";
export const EMPLOYEE_REGISTERED = "Employee registered successfully!";
export const REGISTERING_EMPLOYEE = "Registering employee in Sigma...";

const LIST = "/admin/employee-list";

/**
 * /admin/add-employee. After the API has registered the employee, a hidden frame loads their embed URL
 * ('Registering employee in Sigma...'); on its `load`: 'Employee registered successfully!' and the
 * employee list. No client assigned → no embed URL (DEVIATION D18) → straight to the list.
 */
export function AddEmployeePage() {
  const addEmployee = useAddEmployee();
  const registration = useSigmaRegistration(LIST, EMPLOYEE_REGISTERED);
  const toListWithNotice = useToListWithNotice(LIST);
  const [clients, setClients] = useState<TOption[]>([]);
  const form = useForm<
    TAddEmployeeFormInput & { signInMethod: TSignInMethod },
    unknown,
    TAddEmployeeFormValues & { signInMethod: TSignInMethod }
  >({
    resolver: signInMethodResolver(ZAddEmployeeFormSchema, ZAddEmployeeInviteFormSchema),
    defaultValues: {
      employeeId: "",
      firstName: "",
      lastName: "",
      email: "",
      password: "",
      privilege: "",
      signInMethod: "invite",
    },
  });

  const onSubmit = form.handleSubmit(({ signInMethod, password, ...person }) => {
    addEmployee.mutate(
      {
        ...person,
        ...(signInMethod === "invite" ? { invite: true as const } : { password }),
        role: "employee",
        clientIds: clients.map((client) => client.value),
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

  const registered = addEmployee.isSuccess;
  const busy = addEmployee.isPending || registered;

  return (
    <FormPage
      title="Add Employee"
      description="Registers an advisor, creates their sign-in and assigns the clients they look after."
      backTo={LIST}
      backLabel="Back to employees"
    >
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate>
          <fieldset disabled={busy} className="contents">
            <PersonIdentityFields
              title="Employee"
              description="How the firm identifies the employee."
              idLabel="Employee ID"
              idName="employeeId"
            />
            <SignInMethodFields
              description="The employee signs in at the portal with these."
              emailLabel="Email Address"
              passwordHint="At least 8 characters. Share it with the employee securely."
            />
            <AccessFields description="What the employee may do, and for which clients.">
              <ClientPicker selected={clients} onChange={setClients} disabled={busy} />
            </AccessFields>
          </fieldset>
          <SubmitFooter
            cancelTo={LIST}
            submitLabel="Register Employee"
            pendingLabel="Registering..."
            {...saveState(addEmployee, "The employee could not be registered.")}
            missingFields={hasMissingFields(form.formState.errors)}
            success={registered ? EMPLOYEE_CREATED : undefined}
          >
            <SigmaRegistration registration={registration} text={REGISTERING_EMPLOYEE} />
          </SubmitFooter>
        </form>
      </FormProvider>
    </FormPage>
  );
}
