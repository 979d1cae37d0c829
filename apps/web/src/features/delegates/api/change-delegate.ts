import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZDelegateResponseSchema } from "@portal/contracts";
import type { TDelegateChangeRequest } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { MY_DELEGATES, delegatesPath, delegatesQueryKey } from "../utils/owner";

export const CHANGE_DELEGATE_FAILED = "The change could not be saved. Please try again.";

/** PATCH /api/me/delegates/{id}: what the client shares with someone, and until when. */
export function changeDelegate(id: number, body: TDelegateChangeRequest) {
  return apiRequest(delegatesPath(MY_DELEGATES, id), {
    method: "PATCH",
    body,
    schema: ZDelegateResponseSchema,
    fallbackError: CHANGE_DELEGATE_FAILED,
  });
}

export function useChangeDelegate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TDelegateChangeRequest }) => changeDelegate(id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: delegatesQueryKey(MY_DELEGATES) }),
  });
}
