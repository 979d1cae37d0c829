import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";

import { Button, buttonClasses } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";

import { ZAddEmployeeFormSchema, useAddEmployee } from "../api/add-employee";
import type { TAddEmployeeFormInput, TAddEmployeeFormValues } from "../api/add-employee";
import { ALL_FIELDS_REQUIRED, fieldError, hasMissingFields } from "../utils/form-errors";
import type { TOption } from "../utils/multi-select";
import type { TNoticeState } from "../utils/notice";
import { PRIVILEGE_OPTIONS } from "../utils/privileges";
import { ClientPicker } from "./client-picker";
import { FormFooter, FormPage, FormSection } from "./form-layout";
import { RegistrationFrame } from "./registration-frame";

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
  const navigate = useNavigate();
  const addEmployee = useAddEmployee();
  const [clients, setClients] = useState<TOption[]>([]);
  const [embedUrl, setEmbedUrl] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TAddEmployeeFormInput, unknown, TAddEmployeeFormValues>({
    resolver: zodResolver(ZAddEmployeeFormSchema),
    defaultValues: { employeeId: "", firstName: "", lastName: "", email: "", password: "", privilege: "" },
  });

  const toList = () => navigate(LIST, { state: { notice: EMPLOYEE_REGISTERED } satisfies TNoticeState });

  const onSubmit = handleSubmit((values) => {
    addEmployee.mutate(
      { ...values, role: "employee", clientIds: clients.map((client) => client.value) },
      {
        onSuccess: ({ data }) => {
          if (data.embed.embedUrl) setEmbedUrl(data.embed.embedUrl);
          else void toList();
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
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={busy} className="contents">
          <FormSection title="Employee" description="How the firm identifies the employee.">
            <TextField
              label="Employee ID"
              autoComplete="off"
              error={fieldError(errors.employeeId?.message)}
              {...register("employeeId")}
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
          <FormSection title="Sign-in" description="The employee signs in at the portal with these.">
            <TextField
              label="Email Address"
              type="email"
              inputMode="email"
              autoComplete="off"
              error={fieldError(errors.email?.message)}
              {...register("email")}
            />
            <TextField
              label="Password"
              type="password"
              autoComplete="new-password"
              hint="At least 8 characters. Share it with the employee securely."
              error={fieldError(errors.password?.message)}
              {...register("password")}
            />
          </FormSection>
          <FormSection title="Access" description="What the employee may do, and for which clients.">
            <SelectField
              label="Privilege"
              options={PRIVILEGE_OPTIONS}
              error={fieldError(errors.privilege?.message)}
              {...register("privilege")}
            />
            <div className="sm:col-span-2">
              <ClientPicker selected={clients} onChange={setClients} disabled={busy} />
            </div>
          </FormSection>
        </fieldset>
        <FormFooter
          messages={
            <>
              {hasMissingFields(errors) ? (
                <FormMessage tone="error">{ALL_FIELDS_REQUIRED}</FormMessage>
              ) : null}
              {addEmployee.isError ? (
                <FormMessage tone="error">
                  {getErrorMessage(addEmployee.error, "The employee could not be registered.")}
                </FormMessage>
              ) : null}
              {registered ? <FormMessage tone="success">{EMPLOYEE_CREATED}</FormMessage> : null}
              {embedUrl ? (
                <>
                  <p role="status" className="flex items-center gap-2.5 text-sm text-navy-800">
                    <Spinner className="size-4 text-emerald-600" />
                    {REGISTERING_EMPLOYEE}
                  </p>
                  <RegistrationFrame src={embedUrl} title="Sigma registration" onDone={() => void toList()} />
                </>
              ) : null}
            </>
          }
        >
          <Link to={LIST} className={buttonClasses("secondary")}>
            Cancel
          </Link>
          <Button type="submit" isLoading={addEmployee.isPending} disabled={registered}>
            {addEmployee.isPending ? "Registering..." : "Register Employee"}
          </Button>
        </FormFooter>
      </form>
    </FormPage>
  );
}
