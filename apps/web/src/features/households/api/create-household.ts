import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZHouseholdResponseSchema } from "@portal/contracts";
import type { THouseholdInput } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { householdsQueryKey } from "./get-households";

export const CREATE_HOUSEHOLD_FAILED = "The household could not be saved. Please try again.";

/** POST /api/admin/households. */
export function createHousehold(body: THouseholdInput) {
  return apiRequest("/api/admin/households", {
    method: "POST",
    body,
    schema: ZHouseholdResponseSchema,
    fallbackError: CREATE_HOUSEHOLD_FAILED,
  });
}

export function useCreateHousehold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createHousehold,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: householdsQueryKey }),
  });
}
