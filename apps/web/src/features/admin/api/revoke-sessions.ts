import { useMutation } from "@tanstack/react-query";

import { ZSessionsRevokedResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import type { TTwoFactorResetTarget } from "./reset-two-factor";

export const REVOKE_SESSIONS_FAILED = "They could not be signed out. Please try again.";

/**
 * POST /api/admin/revokesessionsclient/{c_id} or …employee/{e_id}: ends every session of the person, who
 * must sign in again.
 */
export function revokeSessions(target: TTwoFactorResetTarget) {
  const url =
    target.type === "client"
      ? `/api/admin/revokesessionsclient/${target.cId}`
      : `/api/admin/revokesessionsemployee/${target.eId}`;
  return apiRequest(url, {
    method: "POST",
    schema: ZSessionsRevokedResponseSchema,
    fallbackError: REVOKE_SESSIONS_FAILED,
  });
}

export function useRevokeSessions(target: TTwoFactorResetTarget) {
  return useMutation({ mutationFn: () => revokeSessions(target) });
}
