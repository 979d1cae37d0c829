import type { QueryClient } from "@tanstack/react-query";

import { CLIENT_PARAM, parseClientParam, resolveViewedClient } from "../utils/viewed-client";
import { myClientsQueryOptions } from "./get-my-clients";
import { myWorkbooksQueryOptions } from "./get-my-workbooks";

/**
 * What the user shell asks for as it renders, asked for as soon as the person is let in (decision 015): the
 * clients they may view (the switcher) and the list of workbooks of the client in the address (`search`),
 * their own without one. Someone without workbooks of their own waits for the clients to know whose list.
 */
export async function prefetchViewedWorkbooks(
  queryClient: QueryClient,
  search: string,
  role: string | null | undefined,
): Promise<void> {
  const param = parseClientParam(new URLSearchParams(search).get(CLIENT_PARAM));
  const clients = queryClient.prefetchQuery(myClientsQueryOptions());
  let viewed = resolveViewedClient({ param, role, clients: undefined });
  if (viewed.status === "pending") {
    await clients;
    const list = queryClient.getQueryData(myClientsQueryOptions().queryKey);
    viewed = resolveViewedClient({ param, role, clients: list ?? null });
  }
  if (viewed.status === "ready") await queryClient.prefetchQuery(myWorkbooksQueryOptions(viewed.clientId));
}
