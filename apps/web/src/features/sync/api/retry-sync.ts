import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZSyncRetryResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";
import { peopleQueryKey } from "@/lib/people-screens";

import { syncQueryKey } from "./get-sync";

export const SYNC_RETRY_FAILED = "The sync could not be retried.";

/** POST /api/admin/sync/{id}/retry: sends one change to the BI service again, at once. */
export function retrySyncChange(id: string) {
  return apiRequest(`/api/admin/sync/${encodeURIComponent(id)}/retry`, {
    method: "POST",
    schema: ZSyncRetryResponseSchema,
    fallbackError: SYNC_RETRY_FAILED,
  });
}

/** POST /api/admin/sync/retry-failed: every change the BI service refused goes again. */
export function retryAllFailedSync() {
  return apiRequest("/api/admin/sync/retry-failed", {
    method: "POST",
    schema: ZSyncRetryResponseSchema,
    fallbackError: SYNC_RETRY_FAILED,
  });
}

function useInvalidateSync() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: syncQueryKey }),
      queryClient.invalidateQueries({ queryKey: peopleQueryKey("client") }),
      queryClient.invalidateQueries({ queryKey: peopleQueryKey("employee") }),
    ]);
}

export function useRetrySyncChange() {
  const invalidate = useInvalidateSync();
  return useMutation({ mutationFn: retrySyncChange, onSuccess: invalidate });
}

export function useRetryAllFailedSync() {
  const invalidate = useInvalidateSync();
  return useMutation({ mutationFn: retryAllFailedSync, onSuccess: invalidate });
}
