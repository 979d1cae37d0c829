import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";

import { apiRequest } from "@/lib/api-client";

import { SYNC_RETRY_FAILED } from "../utils/sync";
import { clientsQueryKey } from "./get-clients";

export const ZResyncResponseSchema = z.object({ message: z.string(), requeued: z.number().int() });

/** POST /api/admin/resyncclient/{c_id}: sends the client's failed changes to Sigma again. */
export function resyncClient(cId: number) {
  return apiRequest(`/api/admin/resyncclient/${cId}`, {
    method: "POST",
    schema: ZResyncResponseSchema,
    fallbackError: SYNC_RETRY_FAILED,
  });
}

export function useResyncClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resyncClient,
    // Settles once the lists show the re-queued state (the retry's spinner lasts until then).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientsQueryKey }),
  });
}
