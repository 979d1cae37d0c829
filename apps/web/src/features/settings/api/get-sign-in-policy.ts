import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZSignInPolicySchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const LOAD_SIGN_IN_POLICY_FAILED = "The sign-in security settings could not be loaded.";
export const signInPolicyQueryKey = ["admin", "settings", "sign-in"] as const;

/** GET /api/admin/settings/sign-in: whom two-step verification is required of, and whether email codes may be used. */
export function getSignInPolicy(signal?: AbortSignal) {
  return apiRequest("/api/admin/settings/sign-in", {
    schema: ZSignInPolicySchema,
    fallbackError: LOAD_SIGN_IN_POLICY_FAILED,
    signal,
  });
}

export const signInPolicyQueryOptions = () =>
  queryOptions({
    queryKey: signInPolicyQueryKey,
    queryFn: ({ signal }) => getSignInPolicy(signal),
  });

export function useSignInPolicy() {
  return useQuery(signInPolicyQueryOptions());
}
