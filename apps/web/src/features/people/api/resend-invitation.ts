import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZInvitationActionResponseSchema } from "@portal/contracts";
import type { TPersonKind } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";
import { peopleQueryKey } from "@/lib/people-screens";

export type TInvitationTarget = { kind: TPersonKind; id: number };

export const RESEND_FAILED = "The invitation could not be sent again. Please try again.";

/** POST /api/admin/invitations/{kind}/{id}/resend: a new link by email; the previous one stops working. */
export function resendInvitation({ kind, id }: TInvitationTarget) {
  return apiRequest(`/api/admin/invitations/${kind}/${id}/resend`, {
    method: "POST",
    schema: ZInvitationActionResponseSchema,
    fallbackError: RESEND_FAILED,
  });
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    onSuccess: (_data, { kind }) => queryClient.invalidateQueries({ queryKey: peopleQueryKey(kind) }),
  });
}
