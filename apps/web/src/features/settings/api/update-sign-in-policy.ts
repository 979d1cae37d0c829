import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZSignInPolicySchema } from "@portal/contracts";
import type { TSignInPolicy } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { signInPolicyQueryKey } from "./get-sign-in-policy";

export const SAVE_SIGN_IN_POLICY_FAILED =
  "The sign-in security settings could not be saved. Please try again.";

/** PUT /api/admin/settings/sign-in. */
export function updateSignInPolicy(body: TSignInPolicy) {
  return apiRequest("/api/admin/settings/sign-in", {
    method: "PUT",
    body,
    schema: ZSignInPolicySchema,
    fallbackError: SAVE_SIGN_IN_POLICY_FAILED,
  });
}

export function useUpdateSignInPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSignInPolicy,
    onSuccess: (saved) => queryClient.setQueryData(signInPolicyQueryKey, saved),
  });
}
