import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZMyClientsResponseSchema } from "@portal/contracts";
import type { TViewableClient } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const LOAD_MY_CLIENTS_FAILED = "The clients you may view could not be loaded.";

/**
 * GET /api/me/clients: whom the signed-in person may view (issue 23): themselves first, then the clients who
 * made them a delegate. More than one gets the shell's switcher; someone without workbooks of their own opens
 * the first.
 */
export function getMyClients(signal?: AbortSignal): Promise<TViewableClient[]> {
  return apiRequest("/api/me/clients", {
    schema: ZMyClientsResponseSchema,
    fallbackError: LOAD_MY_CLIENTS_FAILED,
    signal,
  });
}

export const myClientsQueryOptions = () =>
  queryOptions({
    queryKey: ["me", "clients"],
    queryFn: ({ signal }) => getMyClients(signal),
  });

/** `enabled: false` while the shell offers no pages (two-step set-up): the server refuses the list then. */
export function useMyClients(enabled = true) {
  return useQuery({ ...myClientsQueryOptions(), enabled });
}
