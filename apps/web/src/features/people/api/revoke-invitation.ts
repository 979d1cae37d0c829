import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZInvitationActionResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";
import { peopleQueryKey } from "@/lib/people-screens";

import type { TInvitationTarget } from "./resend-invitation";

export const REVOKE_FAILED = "The invitation could not be revoked. Please try again.";

/** DELETE /api/admin/invitations/{kind}/{id}: the open invitation link stops working. */
export function revokeInvitation({ kind, id }: TInvitationTarget) {
  return apiRequest(`/api/admin/invitations/${kind}/${id}`, {
    method: "DELETE",
    schema: ZInvitationActionResponseSchema,
    fallbackError: REVOKE_FAILED,
  });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: (_data, { kind }) => queryClient.invalidateQueries({ queryKey: peopleQueryKey(kind) }),
  });
}
