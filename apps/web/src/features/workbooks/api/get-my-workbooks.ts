import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZMyWorkbooksResponseSchema } from "@portal/contracts";
import type { TWorkbook } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const LOAD_MY_WORKBOOKS_FAILED = "Your workbooks could not be loaded.";

/**
 * GET /api/me/workbooks: the signed-in person's workbooks, in catalogue order (a client's assigned ones, an
 * employee's clients' ones). The server decides; the list only drives the sidebar and the default workbook.
 */
export function getMyWorkbooks(signal?: AbortSignal): Promise<TWorkbook[]> {
  return apiRequest("/api/me/workbooks", {
    schema: ZMyWorkbooksResponseSchema,
    fallbackError: LOAD_MY_WORKBOOKS_FAILED,
    signal,
  });
}

export const myWorkbooksQueryOptions = () =>
  queryOptions({
    queryKey: ["me", "workbooks"],
    queryFn: ({ signal }) => getMyWorkbooks(signal),
  });

/** Shared by the sidebar, the breadcrumb and the workbook view (one request, one cache entry). */
export function useMyWorkbooks() {
  return useQuery(myWorkbooksQueryOptions());
}
