import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZMessageSchema } from "@portal/contracts";
import type { TClient } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { clientsQueryKey } from "./get-clients";
import { employeesQueryKey } from "./get-employees";
import { removeFromCachedLists } from "./list-cache";

/** DELETE /api/admin/deleteclient/{c_id}: removes the client and ends their sign-in (DEVIATION D19). */
export function deleteClient(cId: number) {
  return apiRequest(`/api/admin/deleteclient/${cId}`, {
    method: "DELETE",
    schema: ZMessageSchema,
    fallbackError: "The client could not be deleted.",
  });
}

export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteClient,
    onSuccess: (_result, cId) => {
      removeFromCachedLists<TClient>(queryClient, clientsQueryKey, (client) => client.c_id === cId);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: clientsQueryKey }),
        // Employees assigned to the client list it by name.
        queryClient.invalidateQueries({ queryKey: employeesQueryKey }),
      ]);
    },
  });
}
