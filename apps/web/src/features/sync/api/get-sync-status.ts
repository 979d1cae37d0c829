import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZSyncOverviewSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { SYNC_POLL_MS, syncQueryKey } from "./get-sync";

export const LOAD_SYNC_STATUS_FAILED = "The BI service's state could not be loaded.";

/** GET /api/admin/sync/status: the queue's counts and whether the BI service answers right now. */
export function getSyncStatus() {
  return apiRequest("/api/admin/sync/status", {
    schema: ZSyncOverviewSchema,
    fallbackError: LOAD_SYNC_STATUS_FAILED,
  });
}

export const syncStatusQueryOptions = () =>
  queryOptions({ queryKey: [...syncQueryKey, "status"], queryFn: getSyncStatus });

export function useSyncStatus() {
  return useQuery({ ...syncStatusQueryOptions(), refetchInterval: SYNC_POLL_MS });
}
