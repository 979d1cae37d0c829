import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import { ZClientSchema } from "@portal/contracts";
import type { CLIENT_SORTS, TClient } from "@portal/contracts";

import type { TListPage, TListParams } from "../utils/paging";
import { pendingSyncPollInterval } from "../utils/sync";
import { listRequest } from "./list-request";

export type TClientListParams = TListParams & { sort?: (typeof CLIENT_SORTS)[number] };

/** Every cached client list starts with this key; mutations invalidate it. */
export const clientsQueryKey = ["admin", "clients"] as const;

/** GET /api/admin/clients: one page of clients with their assigned employees. */
export function getClients(params: TClientListParams, signal?: AbortSignal): Promise<TListPage<TClient>> {
  return listRequest("/api/admin/clients", params, {
    item: ZClientSchema,
    fallbackError: "Failed to load clients.",
    signal,
  });
}

export const clientsQueryOptions = (params: TClientListParams = {}) =>
  queryOptions({
    queryKey: [...clientsQueryKey, "list", params],
    queryFn: ({ signal }) => getClients(params, signal),
  });

/**
 * Keeps the previous page on screen while the next one (or a new search) loads, and fetches the page
 * again every few seconds while one of its clients is still on the way to Sigma.
 */
export function useClients(params: TClientListParams) {
  return useQuery({
    ...clientsQueryOptions(params),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pendingSyncPollInterval(query.state.data),
  });
}
