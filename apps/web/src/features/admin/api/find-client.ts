import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZClientSchema } from "@portal/contracts";
import type { TClient } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";

import { useEditTarget } from "../utils/edit-state";
import { clientsQueryKey, getClients } from "./get-clients";

export const CLIENT_NOT_FOUND = "This client no longer exists. It may have been deleted.";

/**
 * One client by its Client ID, for Edit Client opened from the address bar (a reload or a bookmark),
 * where no client came along with the navigation. The list's prefix search narrows the candidates;
 * the exact Client ID picks the one (sorted by Client ID, an exact match comes first).
 */
export async function findClient(clientId: string, signal?: AbortSignal): Promise<TClient> {
  const page = await getClients({ q: clientId, sort: "client_id", limit: 20 }, signal);
  const client = page.rows.find((row) => row.client_id === clientId);
  if (!client) throw new AppRequestError(CLIENT_NOT_FOUND, { status: 404 });
  return client;
}

export const findClientQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: [...clientsQueryKey, "by-client-id", clientId],
    queryFn: ({ signal }) => findClient(clientId, signal),
    retry: false,
  });

/** The client passed along by the list (`initial`), else looked up by Client ID. */
export function useClient(clientId: string, initial: TClient | undefined) {
  return useQuery({
    ...findClientQueryOptions(clientId),
    enabled: clientId !== "" && initial === undefined,
  });
}

/**
 * The client a screen opened with `?id=<Client ID>` is about: the one passed along in the navigation state
 * (from the list or Edit Client), else looked up by its Client ID (a reload or a bookmark).
 */
export function useClientTarget() {
  const { passed, key: clientId } = useEditTarget<TClient>({
    param: "id",
    stateKey: "client",
    schema: ZClientSchema,
    keyOf: (client) => client.client_id,
  });
  const lookup = useClient(clientId, passed);
  return { client: passed ?? lookup.data, clientId, lookup };
}
