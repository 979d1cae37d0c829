import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZMessageSchema } from "@portal/contracts";
import type { TEmployee } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { clientsQueryKey } from "./get-clients";
import { employeesQueryKey } from "./get-employees";
import { removeFromCachedLists } from "./list-cache";

/** DELETE /api/admin/deleteemployee/{e_id}: removes the employee and ends their sign-in (DEVIATION D19). */
export function deleteEmployee(eId: number) {
  return apiRequest(`/api/admin/deleteemployee/${eId}`, {
    method: "DELETE",
    schema: ZMessageSchema,
    fallbackError: "The employee could not be deleted.",
  });
}

export function useDeleteEmployee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEmployee,
    onSuccess: (_result, eId) => {
      removeFromCachedLists<TEmployee>(queryClient, employeesQueryKey, (employee) => employee.e_id === eId);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: employeesQueryKey }),
        // Clients list their assigned employees by name.
        queryClient.invalidateQueries({ queryKey: clientsQueryKey }),
      ]);
    },
  });
}
