import { useMutation, useQueryClient } from "@tanstack/react-query";

import { apiRequest } from "@/lib/api-client";

import { employeesQueryKey } from "./get-employees";
import { ZResyncResponseSchema } from "./resync-client";

/** POST /api/admin/resyncemployee/{e_id}: sends the employee's failed changes to Sigma again. */
export function resyncEmployee(eId: number) {
  return apiRequest(`/api/admin/resyncemployee/${eId}`, {
    method: "POST",
    schema: ZResyncResponseSchema,
    fallbackError: "The sync could not be retried.",
  });
}

export function useResyncEmployee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resyncEmployee,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesQueryKey }),
  });
}
