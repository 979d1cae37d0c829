import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZDelegateResponseSchema } from "@portal/contracts";
import type { TDelegateInviteRequest } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { delegatesPath, delegatesQueryKey } from "../utils/owner";
import type { TDelegatesOwner } from "../utils/owner";

export const INVITE_DELEGATE_FAILED = "The invitation could not be sent. Please try again.";

/** POST /api/me/delegates or /api/admin/clients/{c_id}/delegates: invites someone by email. */
export function inviteDelegate(owner: TDelegatesOwner, body: TDelegateInviteRequest) {
  return apiRequest(delegatesPath(owner), {
    method: "POST",
    body,
    schema: ZDelegateResponseSchema,
    fallbackError: INVITE_DELEGATE_FAILED,
  });
}

export function useInviteDelegate(owner: TDelegatesOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TDelegateInviteRequest) => inviteDelegate(owner, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: delegatesQueryKey(owner) }),
  });
}
