import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import { ZWorkbookSchema } from "@portal/contracts";
import type { TWorkbook, WORKBOOK_SORTS } from "@portal/contracts";

import type { TListPage, TListParams } from "../utils/paging";
import { listRequest } from "./list-request";

export type TWorkbookListParams = TListParams & { sort?: (typeof WORKBOOK_SORTS)[number] };

export const LOAD_WORKBOOKS_FAILED = "Failed to load workbooks.";

/** Every cached workbook list starts with this key; mutations invalidate it. */
export const workbooksQueryKey = ["admin", "workbooks"] as const;

/** GET /api/admin/workbooks: one page of the workbook catalogue. */
export function getWorkbooks(
  params: TWorkbookListParams,
  signal?: AbortSignal,
): Promise<TListPage<TWorkbook>> {
  return listRequest("/api/admin/workbooks", params, {
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

export function useWorkbooks(params: TWorkbookListParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...workbooksQueryOptions(params), placeholderData: keepPreviousData, ...options });
}
