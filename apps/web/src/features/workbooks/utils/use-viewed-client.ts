import { useSearchParams } from "react-router";

import { useSession } from "@/lib/session";

import { useMyClients } from "../api/get-my-clients";
import { CLIENT_PARAM, parseClientParam, resolveViewedClient } from "./viewed-client";
import type { TViewedClient } from "./viewed-client";

/**
 * Whose workbooks `/` and `/workbooks/:workbookId` show, from the URL's `?client=` (so a reload or a shared
 * link opens the same client). Only someone without workbooks of their own waits for the list of clients.
 */
export function useViewedClient(): TViewedClient {
  const [searchParams] = useSearchParams();
  const { data: session } = useSession();
  const param = parseClientParam(searchParams.get(CLIENT_PARAM));
  const role = session?.user.role;
  const needsList = resolveViewedClient({ param, role, clients: undefined }).status === "pending";
  const clients = useMyClients(needsList);
  return resolveViewedClient({
    param,
    role,
    clients: clients.isError ? null : clients.data,
  });
}
