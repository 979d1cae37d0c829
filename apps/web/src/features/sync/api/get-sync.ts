import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import { ZSyncItemSchema } from "@portal/contracts";
import type { SYNC_FILTERS, TSyncItem } from "@portal/contracts";

import { apiListRequest } from "@/lib/api-list";
import type { TListPage, TListParams } from "@/lib/paging";

export type TSyncFilter = (typeof SYNC_FILTERS)[number];
export type TSyncListParams = Pick<TListParams, "offset" | "limit"> & { status: TSyncFilter };

export const LOAD_SYNC_FAILED = "Failed to load the changes on their way to the BI service.";

/** Every cached piece of the sync page starts with this key; retries invalidate it. */
export const syncQueryKey = ["admin", "sync"] as const;

/** How often the sync page is fetched again: the queue moves by itself. */
export const SYNC_POLL_MS = 5_000;

/** GET /api/admin/sync: one page of the changes not yet delivered to the BI service, or refused by it. */
export function getSyncChanges(
  { status, ...params }: TSyncListParams,
  signal?: AbortSignal,
): Promise<TListPage<TSyncItem>> {
  const path = status === "all" ? "/api/admin/sync" : `/api/admin/sync?status=${status}`;
  return apiListRequest(path, params, { item: ZSyncItemSchema, fallbackError: LOAD_SYNC_FAILED, signal });
}

export const syncChangesQueryOptions = (params: TSyncListParams) =>
  queryOptions({
    queryKey: [...syncQueryKey, "list", params],
    queryFn: ({ signal }) => getSyncChanges(params, signal),
  });

export function useSyncChanges(params: TSyncListParams) {
  return useQuery({
    ...syncChangesQueryOptions(params),
    placeholderData: keepPreviousData,
    refetchInterval: SYNC_POLL_MS,
  });
}
