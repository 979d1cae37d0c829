import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import { ZClientSchema } from "@portal/contracts";

import { apiListRequest } from "@/lib/api-list";
import { peopleQueryKey } from "@/lib/people-screens";

export const LOAD_CLIENTS_FAILED = "Failed to load clients.";

type TClientSearch = { q: string | undefined; limit: number };

/**
 * GET /api/admin/clients: the first page of clients matching the text, for the household's member picker. The
 * cache entry is the client list's own (same key and answer), so a change to clients refreshes it too.
 */
export function searchClients(params: TClientSearch, signal?: AbortSignal) {
  return apiListRequest("/api/admin/clients", params, {
    item: ZClientSchema,
    fallbackError: LOAD_CLIENTS_FAILED,
    signal,
  });
}

export const clientSearchQueryOptions = (params: TClientSearch) =>
  queryOptions({
    queryKey: [...peopleQueryKey("client"), "list", params],
    queryFn: ({ signal }) => searchClients(params, signal),
    placeholderData: keepPreviousData,
  });

export function useClientSearch(params: TClientSearch, enabled: boolean) {
  return useQuery({ ...clientSearchQueryOptions(params), enabled });
}
