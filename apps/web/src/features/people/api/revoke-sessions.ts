import { useMutation } from "@tanstack/react-query";

import { PEOPLE, ZSessionsRevokedResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import type { TPersonTarget } from "./people";

export const REVOKE_SESSIONS_FAILED = "They could not be signed out. Please try again.";

/**
 * POST /api/admin/revokesessionsclient/{c_id} or …employee/{e_id}: ends every session of the person, who
 * must sign in again.
 */
export function revokeSessions(target: TPersonTarget) {
  return apiRequest(`${PEOPLE[target.kind].paths.revokeSessions}/${target.id}`, {
    method: "POST",
    schema: ZSessionsRevokedResponseSchema,
    fallbackError: REVOKE_SESSIONS_FAILED,
  });
}

export function useRevokeSessions(target: TPersonTarget) {
  return useMutation({ mutationFn: () => revokeSessions(target) });
}
