import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZSessionsRevokedResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { sessionsQueryKey } from "./get-sessions";

export const REVOKE_SESSION_FAILED = "That session could not be signed out. Please try again.";

/** DELETE /api/me/sessions/{id}: signs out one of the person's sessions (another device). */
export function revokeSession(id: string) {
  return apiRequest(`/api/me/sessions/${encodeURIComponent(id)}`, {
    method: "DELETE",
    schema: ZSessionsRevokedResponseSchema,
    fallbackError: REVOKE_SESSION_FAILED,
  });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    // Also after a 404 (ended meanwhile): the list shows what is left.
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
