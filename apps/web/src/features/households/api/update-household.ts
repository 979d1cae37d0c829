import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZHouseholdResponseSchema } from "@portal/contracts";
import type { THouseholdInput } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { householdsQueryKey } from "./get-households";

export const UPDATE_HOUSEHOLD_FAILED = "The household could not be saved. Please try again.";

/** PUT /api/admin/households/{id}: its name, members and combined view, replaced. */
export function updateHousehold(id: number, body: THouseholdInput) {
  return apiRequest(`/api/admin/households/${id}`, {
    method: "PUT",
    body,
    schema: ZHouseholdResponseSchema,
    fallbackError: UPDATE_HOUSEHOLD_FAILED,
  });
}

export function useUpdateHousehold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: THouseholdInput }) => updateHousehold(id, body),
    // Also after a 404 (deleted meanwhile): the list shows what is left.
    onSettled: () => queryClient.invalidateQueries({ queryKey: householdsQueryKey }),
  });
}
