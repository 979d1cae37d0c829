import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZClientDelegatesResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { delegatesPath, delegatesQueryKey } from "../utils/owner";

export const LOAD_CLIENT_DELEGATES_FAILED =
  "The people with access to this client's workbooks could not be loaded.";

/** GET /api/admin/clients/{c_id}/delegates: the people a client (or the firm for them) invited. */
export function getClientDelegates(cId: number, signal?: AbortSignal) {
  return apiRequest(delegatesPath({ kind: "client", cId }), {
    schema: ZClientDelegatesResponseSchema,
    fallbackError: LOAD_CLIENT_DELEGATES_FAILED,
    signal,
  });
}

export const clientDelegatesQueryOptions = (cId: number) =>
  queryOptions({
    queryKey: delegatesQueryKey({ kind: "client", cId }),
    queryFn: ({ signal }) => getClientDelegates(cId, signal),
  });

export function useClientDelegates(cId: number) {
  return useQuery(clientDelegatesQueryOptions(cId));
}
