import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZHouseholdsResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const LOAD_HOUSEHOLDS_FAILED = "The households could not be loaded.";

/** Every household query starts with this key; a change to any household refreshes them all. */
export const householdsQueryKey = ["admin", "households"] as const;

/** GET /api/admin/households: every household with its members and whether the combined view is on. */
export function getHouseholds(signal?: AbortSignal) {
  return apiRequest("/api/admin/households", {
    schema: ZHouseholdsResponseSchema,
    fallbackError: LOAD_HOUSEHOLDS_FAILED,
    signal,
  });
}

export const householdsQueryOptions = () =>
  queryOptions({ queryKey: [...householdsQueryKey, "list"], queryFn: ({ signal }) => getHouseholds(signal) });

export function useHouseholds() {
  return useQuery(householdsQueryOptions());
}
