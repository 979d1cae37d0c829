import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZMyWorkbooksResponseSchema } from "@portal/contracts";
import type { TWorkbook } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { clientSearch, isNotFound } from "../utils/viewed-client";
import { startedWorkbooks } from "./start-view";

export const LOAD_MY_WORKBOOKS_FAILED = "Your workbooks could not be loaded.";

/** How often a delegated view asks whether it is still shared. */
export const DELEGATED_RECHECK_MS = 60_000;

/** `/api/me/workbooks`, with `?client=` for a client the person views as a delegate (null: their own). */
export function myWorkbooksPath(clientId: number | null): string {
  return `/api/me/workbooks${clientSearch(clientId)}`;
}

/**
 * GET /api/me/workbooks: the signed-in person's workbooks, in catalogue order (a client's assigned ones, an
 * employee's clients' ones), or with `clientId` those a client shares with them; a client they may not view
 * (any more) answers 404. The server decides; the list only drives the sidebar and the default workbook.
 */
export function getMyWorkbooks(clientId: number | null, signal?: AbortSignal): Promise<TWorkbook[]> {
  return apiRequest(myWorkbooksPath(clientId), {
    schema: ZMyWorkbooksResponseSchema,
    fallbackError: LOAD_MY_WORKBOOKS_FAILED,
    signal,
  });
}

/** The key names the client, so two clients' lists never share a cache entry. */
export const myWorkbooksQueryOptions = (clientId: number | null = null) =>
  queryOptions({
    queryKey: clientId === null ? ["me", "workbooks"] : ["me", "workbooks", { client: clientId }],
    // The first load takes the list the start of the view brought, when it brought this client's (decision 024).
    queryFn: async ({ signal }) => (await startedWorkbooks(clientId)) ?? getMyWorkbooks(clientId, signal),
    // A client who is no longer shared stays so: asking again would only repeat the 404.
    retry: (failures, error) => !isNotFound(error) && failures < 1,
    // Someone else's workbooks are checked again every minute, so a revoked or ended delegation closes an open
    // frame within a minute rather than at the end of its embed session (decision 020).
    refetchInterval: clientId === null ? false : DELEGATED_RECHECK_MS,
  });

/**
 * Shared by the sidebar, the breadcrumb and the workbook view (one request, one cache entry per client).
 * `enabled: false` while it is not known yet whose workbooks to show.
 */
export function useMyWorkbooks(clientId: number | null, enabled = true) {
  return useQuery({ ...myWorkbooksQueryOptions(clientId), enabled });
}
