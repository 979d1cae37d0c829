import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZMessageSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { householdsQueryKey } from "./get-households";

export const DELETE_HOUSEHOLD_FAILED = "The household could not be deleted. Please try again.";

/** DELETE /api/admin/households/{id}: the household goes; its clients stay, each on their own. */
export function deleteHousehold(id: number) {
  return apiRequest(`/api/admin/households/${id}`, {
    method: "DELETE",
    schema: ZMessageSchema,
    fallbackError: DELETE_HOUSEHOLD_FAILED,
  });
}

export function useDeleteHousehold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteHousehold,
    onSettled: () => queryClient.invalidateQueries({ queryKey: householdsQueryKey }),
  });
}
