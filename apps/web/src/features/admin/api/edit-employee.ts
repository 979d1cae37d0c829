import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";

import {
  ZEditEmployeeRequestSchema,
  ZEmployeeMutationResponseSchema,
  ZPrivilegeSchema,
} from "@portal/contracts";
import type { TEditEmployeeRequest } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { clientsQueryKey } from "./get-clients";
import { employeesQueryKey } from "./get-employees";

/** The editable fields of Edit Employee (the assigned clients come from the multi-select). */
export const ZEditEmployeeFormSchema = ZEditEmployeeRequestSchema.pick({
  employeeId: true,
  firstName: true,
  lastName: true,
}).extend({
  privilege: z.string().pipe(ZPrivilegeSchema),
});
export type TEditEmployeeFormInput = z.input<typeof ZEditEmployeeFormSchema>;
export type TEditEmployeeFormValues = z.output<typeof ZEditEmployeeFormSchema>;

/** PUT /api/admin/editemployee: names, privilege and the complete list of assigned clients. */
export function editEmployee(input: TEditEmployeeRequest) {
  return apiRequest("/api/admin/editemployee", {
    method: "PUT",
    body: input,
    schema: ZEmployeeMutationResponseSchema,
    fallbackError: "The employee could not be updated.",
  });
}

export function useEditEmployee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editEmployee,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: employeesQueryKey }),
        queryClient.invalidateQueries({ queryKey: clientsQueryKey }),
      ]),
  });
}
