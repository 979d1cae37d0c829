import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";

import { ZAddEmployeeRequestSchema, ZAddEmployeeResponseSchema, ZPrivilegeSchema } from "@portal/contracts";
import type { TAddEmployeeInviteRequest, TAddEmployeeRequest, TAddEmployeeResponse } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { clientsQueryKey } from "./get-clients";
import { employeesQueryKey } from "./get-employees";

/** The Add Employee form's fields, checked with the request's own rules (blank → 'All fields are required.'). */
export const ZAddEmployeeFormSchema = ZAddEmployeeRequestSchema.pick({
  employeeId: true,
  firstName: true,
  lastName: true,
  email: true,
  password: true,
}).extend({
  // The select starts empty (""), which the privilege rule reports as a missing field.
  privilege: z.string().pipe(ZPrivilegeSchema),
});
export type TAddEmployeeFormInput = z.input<typeof ZAddEmployeeFormSchema>;
export type TAddEmployeeFormValues = z.output<typeof ZAddEmployeeFormSchema>;

/** "Send an invitation" (the default, D55): the same fields without the password, which the person chooses. */
export const ZAddEmployeeInviteFormSchema = ZAddEmployeeFormSchema.omit({ password: true });

/**
 * POST /api/admin/addemployee: the employee, their sign-in account and client assignments in one go: the spec's
 * payload with a password, or without one and `invite: true` ("Send an invitation", D55).
 */
export function addEmployee(
  input: TAddEmployeeRequest | TAddEmployeeInviteRequest,
): Promise<TAddEmployeeResponse> {
  return apiRequest("/api/admin/addemployee", {
    method: "POST",
    body: input,
    schema: ZAddEmployeeResponseSchema,
    fallbackError: "The employee could not be registered.",
  });
}

export function useAddEmployee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addEmployee,
    // Clients list their assigned employees by name.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: employeesQueryKey }),
        queryClient.invalidateQueries({ queryKey: clientsQueryKey }),
      ]),
  });
}
