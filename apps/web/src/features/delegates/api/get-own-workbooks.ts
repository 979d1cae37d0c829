import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZMyWorkbooksResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const LOAD_OWN_WORKBOOKS_FAILED = "Your workbooks could not be loaded.";

/**
 * GET /api/me/workbooks: the signed-in client's own workbooks, the ones they can share. The key and answer are
 * the workbook view's own (one request, one cache entry for the person's own list).
 */
export function getOwnWorkbooks(signal?: AbortSignal) {
  return apiRequest("/api/me/workbooks", {
    schema: ZMyWorkbooksResponseSchema,
    fallbackError: LOAD_OWN_WORKBOOKS_FAILED,
    signal,
  });
}

export const ownWorkbooksQueryOptions = () =>
  queryOptions({ queryKey: ["me", "workbooks"], queryFn: ({ signal }) => getOwnWorkbooks(signal) });

export function useOwnWorkbooks(enabled = true) {
  return useQuery({ ...ownWorkbooksQueryOptions(), enabled });
}
