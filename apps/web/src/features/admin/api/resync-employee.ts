import { useMutation, useQueryClient } from "@tanstack/react-query";

import { apiRequest } from "@/lib/api-client";

import { SYNC_RETRY_FAILED } from "../utils/sync";
import { employeesQueryKey } from "./get-employees";
import { ZResyncResponseSchema } from "./resync-client";

/** POST /api/admin/resyncemployee/{e_id}: sends the employee's failed changes to Sigma again. */
export function resyncEmployee(eId: number) {
  return apiRequest(`/api/admin/resyncemployee/${eId}`, {
    method: "POST",
    schema: ZResyncResponseSchema,
    fallbackError: SYNC_RETRY_FAILED,
  });
}

export function useResyncEmployee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resyncEmployee,
    // Settles once the lists show the re-queued state (the retry's spinner lasts until then).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesQueryKey }),
  });
}
