import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";

import { ZClientMutationResponseSchema, ZEditClientRequestSchema } from "@portal/contracts";
import type { TEditClientRequest } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { employeesQueryKey } from "./get-employees";
import { clientsQueryKey } from "./get-clients";

export const UPDATE_CLIENT_FAILED = "Update failed";

/** The editable fields of Edit Client (privilege, email, password and workbooks are read-only there). */
export const ZEditClientFormSchema = ZEditClientRequestSchema.pick({
  clientId: true,
  firstName: true,
  lastName: true,
});
export type TEditClientFormInput = z.input<typeof ZEditClientFormSchema>;
export type TEditClientFormValues = z.output<typeof ZEditClientFormSchema>;

/** PUT /api/admin/editclient; `privilege` must be the stored one (DEVIATION D16). */
export function editClient(input: TEditClientRequest) {
  return apiRequest("/api/admin/editclient", {
    method: "PUT",
    body: input,
    schema: ZClientMutationResponseSchema,
    fallbackError: UPDATE_CLIENT_FAILED,
  });
}

export function useEditClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editClient,
    // Employees list their clients by name, so both lists may show the change.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: clientsQueryKey }),
        queryClient.invalidateQueries({ queryKey: employeesQueryKey }),
      ]),
  });
}
