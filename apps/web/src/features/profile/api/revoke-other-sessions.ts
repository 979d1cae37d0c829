import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZSessionsRevokedResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { sessionsQueryKey } from "./get-sessions";

export const REVOKE_OTHER_SESSIONS_FAILED = "Your other sessions could not be signed out. Please try again.";

/** POST /api/me/sessions/revoke-others: signs out every session of the person but this one. */
export function revokeOtherSessions() {
  return apiRequest("/api/me/sessions/revoke-others", {
    method: "POST",
    schema: ZSessionsRevokedResponseSchema,
    fallbackError: REVOKE_OTHER_SESSIONS_FAILED,
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
