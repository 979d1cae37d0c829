import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";

import { ZEmployeeSchema } from "@portal/contracts";
import type { TEmployee } from "@portal/contracts";

import { Button, buttonClasses } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";

import { ZEditEmployeeFormSchema, useEditEmployee } from "../api/edit-employee";
import type { TEditEmployeeFormInput, TEditEmployeeFormValues } from "../api/edit-employee";
import { useEmployee } from "../api/find-employee";
import { useResyncEmployee } from "../api/resync-employee";
import { passedRecord } from "../utils/edit-state";
import { ALL_FIELDS_REQUIRED, fieldError, hasMissingFields } from "../utils/form-errors";
import type { TOption } from "../utils/multi-select";
import type { TNoticeState } from "../utils/notice";
import { fullName } from "../utils/people";
import { PRIVILEGE_OPTIONS } from "../utils/privileges";
import { retryStateOf } from "../utils/sync";
import { ClientPicker } from "./client-picker";
import { EditTargetState } from "./edit-target";
import { FormFooter, FormPage, FormSection, MaskedPassword, ReadOnlyItem } from "./form-layout";
import { SyncStatus } from "./sync-status";

const LIST = "/admin/employee-list";

/**
 * /admin/edit-employee?id=<Employee ID>. The list passes the employee along in the navigation state;
 * opened from the address bar the employee is looked up by the Employee ID in `?id=`.
 */
export function EditEmployeePage() {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const idInAddress = searchParams.get("id") ?? "";
  const passed = passedRecord<TEmployee>(
    location.state,
    "employee",
    ZEmployeeSchema,
    (employee) => !idInAddress || employee.employee_id === idInAddress,
  );
  const employeeId = passed?.employee_id ?? idInAddress;
  const lookup = useEmployee(employeeId, passed);
  const employee = passed ?? lookup.data;

  if (!employee) {
    return (
      <EditTargetState
        title="Edit Employee"
        loading={employeeId !== "" && lookup.isPending}
        message={
          employeeId === ""
            ? "No employee selected. Choose one from the employee list."
            : getErrorMessage(lookup.error, "Failed to load the employee.")
        }
        listTo={LIST}
        listLabel="Back to employees"
      />
    );
  }
  return <EditEmployeeForm key={employee.e_id} employee={employee} />;
}

function EditEmployeeForm({ employee }: { employee: TEmployee }) {
  const navigate = useNavigate();
  const editEmployee = useEditEmployee();
  const resync = useResyncEmployee();
  const [clients, setClients] = useState<TOption[]>(() =>
    employee.clients.map((client) => ({ value: client.c_id, label: fullName(client) })),
  );
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TEditEmployeeFormInput, unknown, TEditEmployeeFormValues>({
    resolver: zodResolver(ZEditEmployeeFormSchema),
    defaultValues: {
      employeeId: employee.employee_id,
      firstName: employee.first_name,
      lastName: employee.last_name,
      privilege: employee.privilege,
    },
  });

  const onSubmit = handleSubmit((values) => {
    editEmployee.mutate(
      { eId: employee.e_id, ...values, clientIds: clients.map((client) => client.value) },
      {
        onSuccess: ({ message }) =>
          void navigate(LIST, { state: { notice: message } satisfies TNoticeState }),
      },
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
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={busy} className="contents">
          <FormSection title="Employee">
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
          <FormSection title="Access">
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
        <div className="border-b border-slate-100 px-5 py-6 sm:px-8">
          <h2 className="text-sm font-semibold text-navy-950">Sign-in</h2>
          <p className="mt-0.5 text-sm text-slate-500">Read-only on this screen.</p>
          <dl className="mt-5 grid grid-cols-1 gap-5 sm:grid-cols-2">
            <ReadOnlyItem label="Email Address">{employee.email}</ReadOnlyItem>
            <ReadOnlyItem label="Password">
              <MaskedPassword />
            </ReadOnlyItem>
            <div className="sm:col-span-2">
              <ReadOnlyItem label="Sigma sync">
                <SyncStatus
                  status={employee.sync_status}
                  error={employee.sync_error}
                  onRetry={() => resync.mutate(employee.e_id)}
                  retry={retryStateOf(resync)}
                />
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
              {editEmployee.isError ? (
                <FormMessage tone="error">
                  {getErrorMessage(editEmployee.error, "The employee could not be updated.")}
                </FormMessage>
              ) : null}
            </>
          }
        >
          <Link to={LIST} className={buttonClasses("secondary")}>
            Cancel
          </Link>
          <Button type="submit" isLoading={editEmployee.isPending} disabled={editEmployee.isSuccess}>
            {editEmployee.isPending ? "Updating..." : "Update Employee"}
          </Button>
        </FormFooter>
      </form>
    </FormPage>
  );
}
