import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import { ZWorkbookSchema } from "@portal/contracts";
import type { TWorkbook, WORKBOOK_SORTS } from "@portal/contracts";

import { apiListRequest } from "./api-list";
import type { TListPage, TListParams } from "./paging";

export type TWorkbookListParams = TListParams & { sort?: (typeof WORKBOOK_SORTS)[number] };

export const LOAD_WORKBOOKS_FAILED = "Failed to load workbooks.";

/** Every cached workbook list starts with this key; mutations invalidate it. */
export const workbooksQueryKey = ["admin", "workbooks"] as const;

/**
 * GET /api/admin/workbooks: one page of the workbook catalogue. In lib/, as two features read it: the
 * catalogue's own screens (workbooks) and the people screens (Add Client's picker, Edit Client's workbook
 * names, View as client).
 */
export function getWorkbooks(
  params: TWorkbookListParams,
  signal?: AbortSignal,
): Promise<TListPage<TWorkbook>> {
  return apiListRequest("/api/admin/workbooks", params, {
    item: ZWorkbookSchema,
    fallbackError: LOAD_WORKBOOKS_FAILED,
    signal,
  });
}

export const workbooksQueryOptions = (params: TWorkbookListParams = {}) =>
  queryOptions({
    queryKey: [...workbooksQueryKey, "list", params],
    queryFn: ({ signal }) => getWorkbooks(params, signal),
  });

/** A page of the catalogue that stays on screen while the next one (or a new search) loads. */
export const workbooksListQuery = (params: TWorkbookListParams) =>
  queryOptions({ ...workbooksQueryOptions(params), placeholderData: keepPreviousData });

export function useWorkbooks(params: TWorkbookListParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...workbooksListQuery(params), ...options });
}
