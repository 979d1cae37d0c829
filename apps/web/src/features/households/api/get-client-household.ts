import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZClientHouseholdResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { householdsQueryKey } from "./get-households";

export const LOAD_CLIENT_HOUSEHOLD_FAILED = "The client's household could not be loaded.";

/** GET /api/admin/clients/{c_id}/household: the household the client is in; null: none. */
export function getClientHousehold(cId: number, signal?: AbortSignal) {
  return apiRequest(`/api/admin/clients/${cId}/household`, {
    schema: ZClientHouseholdResponseSchema,
    fallbackError: LOAD_CLIENT_HOUSEHOLD_FAILED,
    signal,
  });
}

export const clientHouseholdQueryOptions = (cId: number) =>
  queryOptions({
    queryKey: [...householdsQueryKey, "of-client", cId],
    queryFn: ({ signal }) => getClientHousehold(cId, signal),
  });

export function useClientHousehold(cId: number) {
  return useQuery(clientHouseholdQueryOptions(cId));
}
