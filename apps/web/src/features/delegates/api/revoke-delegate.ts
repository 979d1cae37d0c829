import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZMessageSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { delegatesPath, delegatesQueryKey } from "../utils/owner";
import type { TDelegatesOwner } from "../utils/owner";

export const REVOKE_DELEGATE_FAILED = "Access could not be removed. Please try again.";

/** DELETE /api/me/delegates/{id} or /api/admin/clients/{c_id}/delegates/{id}: the delegation is deleted. */
export function revokeDelegate(owner: TDelegatesOwner, id: number) {
  return apiRequest(delegatesPath(owner, id), {
    method: "DELETE",
    schema: ZMessageSchema,
    fallbackError: REVOKE_DELEGATE_FAILED,
  });
}

export function useRevokeDelegate(owner: TDelegatesOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => revokeDelegate(owner, id),
    // Also after a 404 (removed meanwhile): the list shows who is left.
    onSettled: () => queryClient.invalidateQueries({ queryKey: delegatesQueryKey(owner) }),
  });
}
