import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";

import { ZEmployeeSchema } from "@portal/contracts";
import type { TEmployee } from "@portal/contracts";

import { ZEditEmployeeFormSchema, useEditEmployee } from "../api/edit-employee";
import type { TEditEmployeeFormInput, TEditEmployeeFormValues } from "../api/edit-employee";
import { useEmployee } from "../api/find-employee";
import { useResyncEmployee } from "../api/resync-employee";
import { useEditTarget } from "../utils/edit-state";
import { hasMissingFields, saveState } from "../utils/form-errors";
import type { TOption } from "../utils/multi-select";
import { useToListWithNotice } from "../utils/notice";
import { fullName } from "../utils/people";
import { ClientPicker } from "./client-picker";
import { EditTargetState } from "./edit-target";
import { FormPage, ReadOnlySection, SubmitFooter } from "./form-layout";
import { AccessFields, PersonIdentityFields, RegisteredSignIn, SigmaSyncItem } from "./person-fields";
import { PasswordResetEmail } from "./password-reset-email";
import { SignOutEverywhere } from "./sign-out-everywhere";
import { TwoFactorReset } from "./two-factor-reset";

const LIST = "/admin/employee-list";

/**
 * /admin/edit-employee?id=<Employee ID>. The list passes the employee along in the navigation state;
 * opened from the address bar the employee is looked up by the Employee ID in `?id=`.
 */
export function EditEmployeePage() {
  const { passed, key: employeeId } = useEditTarget<TEmployee>({
    param: "id",
    stateKey: "employee",
    schema: ZEmployeeSchema,
    keyOf: (employee) => employee.employee_id,
  });
  const lookup = useEmployee(employeeId, passed);
  const employee = passed ?? lookup.data;

  if (!employee) {
    return (
      <EditTargetState
        title="Edit Employee"
        target={employeeId}
        lookup={lookup}
        noneSelected="No employee selected. Choose one from the employee list."
        loadFailed="Failed to load the employee."
        listTo={LIST}
        listLabel="Back to employees"
      />
    );
  }
  return <EditEmployeeForm key={employee.e_id} employee={employee} />;
}

function EditEmployeeForm({ employee }: { employee: TEmployee }) {
  const toList = useToListWithNotice(LIST);
  const editEmployee = useEditEmployee();
  const resync = useResyncEmployee();
  const [clients, setClients] = useState<TOption[]>(() =>
    employee.clients.map((client) => ({ value: client.c_id, label: fullName(client) })),
  );
  const form = useForm<TEditEmployeeFormInput, unknown, TEditEmployeeFormValues>({
    resolver: zodResolver(ZEditEmployeeFormSchema),
    defaultValues: {
      employeeId: employee.employee_id,
      firstName: employee.first_name,
      lastName: employee.last_name,
      privilege: employee.privilege,
    },
  });

  const onSubmit = form.handleSubmit((values) => {
    editEmployee.mutate(
      { eId: employee.e_id, ...values, clientIds: clients.map((client) => client.value) },
      { onSuccess: ({ message }) => toList(message) },
    );
  });

  const busy = editEmployee.isPending || editEmployee.isSuccess;

  return (
    <FormPage
      title="Edit Employee"
      description="Change the employee's ID, name, privilege and clients. Sign-in details stay as registered."
      backTo={LIST}
      backLabel="Back to employees"
    >
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate>
          <fieldset disabled={busy} className="contents">
            <PersonIdentityFields title="Employee" idLabel="Employee ID" idName="employeeId" />
            <AccessFields>
              <ClientPicker selected={clients} onChange={setClients} disabled={busy} />
            </AccessFields>
          </fieldset>
          <ReadOnlySection title="Sign-in">
            <RegisteredSignIn
              emailLabel="Email Address"
              email={employee.email}
              invited={Boolean(employee.invitation)}
            />
            <SigmaSyncItem person={employee} id={employee.e_id} resync={resync} />
            <TwoFactorReset
              target={{ type: "employee", eId: employee.e_id }}
              name={`${employee.first_name} ${employee.last_name}`}
              enabled={employee.two_factor_enabled}
            />
            <SignOutEverywhere
              target={{ type: "employee", eId: employee.e_id }}
              name={`${employee.first_name} ${employee.last_name}`}
            />
            <PasswordResetEmail
              kind="employee"
              id={employee.e_id}
              name={`${employee.first_name} ${employee.last_name}`}
              invitation={employee.invitation}
            />
          </ReadOnlySection>
          <SubmitFooter
            cancelTo={LIST}
            submitLabel="Update Employee"
            pendingLabel="Updating..."
            {...saveState(editEmployee, "The employee could not be updated.")}
            missingFields={hasMissingFields(form.formState.errors)}
          />
        </form>
      </FormProvider>
    </FormPage>
  );
}
